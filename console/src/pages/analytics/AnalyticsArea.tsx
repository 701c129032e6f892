// Analytics (/analytics/*): cost, tokens, queries, documents, votes and indexing over time. The
// charts' library (Recharts) is imported from this area's modules only, which load when it is opened.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import AnalyticsPage from './AnalyticsPage';
import './analytics.css';

export default function AnalyticsArea() {
  return (
    <Routes>
      <Route index element={<AnalyticsPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
