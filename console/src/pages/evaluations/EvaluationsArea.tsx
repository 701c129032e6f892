// Evaluations (/evaluations/*): runs of an agent's checkpoint over a dataset, scored by metrics
// (the index), the datasets and their queries, the metrics, and two runs compared side by side.
import { lazy } from 'react';
import { NavLink, Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import './evaluations.css';

const RunsPage = lazy(() => import('./runs/RunsPage'));
const RunPage = lazy(() => import('./runs/RunPage'));
const ComparePage = lazy(() => import('./compare/ComparePage'));
const DatasetsPage = lazy(() => import('./datasets/DatasetsPage'));
const DatasetPage = lazy(() => import('./datasets/DatasetPage'));
const MetricsPage = lazy(() => import('./metrics/MetricsPage'));

export default function EvaluationsArea() {
  return (
    <div className="evaluations-area">
      <nav className="tabs-nav evaluations-tabs" aria-label="Evaluations">
        <NavLink to="/evaluations" end>
          Runs
        </NavLink>
        <NavLink to="/evaluations/compare">Compare</NavLink>
        <NavLink to="/evaluations/datasets">Datasets</NavLink>
        <NavLink to="/evaluations/metrics">Metrics</NavLink>
      </nav>
      <Routes>
        <Route index element={<RunsPage />} />
        <Route path="runs/:runId" element={<RunPage />} />
        <Route path="compare" element={<ComparePage />} />
        <Route path="datasets" element={<DatasetsPage />} />
        <Route path="datasets/:datasetId" element={<DatasetPage />} />
        <Route path="metrics" element={<MetricsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </div>
  );
}
