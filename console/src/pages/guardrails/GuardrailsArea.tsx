// Guardrails (/guardrails/*): the list, and each guardrail made and edited beside a live test box.
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import './guardrails.css';

const GuardrailListPage = lazy(() => import('./GuardrailListPage'));
const GuardrailEditorPage = lazy(() => import('./GuardrailEditorPage'));

export default function GuardrailsArea() {
  return (
    <Routes>
      <Route index element={<GuardrailListPage />} />
      <Route path="new" element={<GuardrailEditorPage />} />
      <Route path=":guardrailId" element={<GuardrailEditorPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
