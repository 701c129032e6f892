// Tools (/tools/*): the organization's tools by kind; adding one of each kind, from a template or by
// importing an OpenAPI document; one tool's settings, test run and state; an import's report. Each
// page is loaded when first opened.
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import './tools.css';

const ToolsPage = lazy(() => import('./ToolsPage'));
const NewToolPage = lazy(() => import('./NewToolPage'));
const TemplatePage = lazy(() => import('./TemplatePage'));
const ImportPage = lazy(() => import('./ImportPage'));
const ImportReportPage = lazy(() => import('./ImportReportPage'));
const ToolPage = lazy(() => import('./ToolPage'));

export default function ToolsArea() {
  return (
    <Routes>
      <Route index element={<ToolsPage />} />
      <Route path="new/template" element={<TemplatePage />} />
      <Route path="new/:kind" element={<NewToolPage />} />
      <Route path="import" element={<ImportPage />} />
      <Route path="imports/:importId" element={<ImportReportPage />} />
      <Route path=":toolId" element={<ToolPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
