// Chat logs (/logs/*): the organization's responses across threads, filtered, opened and exported.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import ChatLogsPage from './ChatLogsPage';
import ThreadLogPage from './ThreadLogPage';
import './logs.css';

export default function ChatLogsArea() {
  return (
    <Routes>
      <Route index element={<ChatLogsPage />} />
      <Route path="threads/:threadId" element={<ThreadLogPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
