// The organization's pages under /organization: its settings, its people, its models, its sources.
// Each section routes its own pages below its path and is loaded when first opened.
import { lazy } from 'react';
import { NavLink, Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import './organization.css';

const OrganizationSettings = lazy(() => import('./OrganizationSettings'));
const PeopleSection = lazy(() => import('../people/PeopleSection'));
const ModelsSection = lazy(() => import('../models/ModelsSection'));
const SourcesSection = lazy(() => import('../sources/SourcesSection'));

export default function OrganizationArea() {
  return (
    <>
      <nav className="tabs-nav organization-tabs" aria-label="Organization">
        <NavLink to="/organization" end>
          Settings
        </NavLink>
        <NavLink to="/organization/people">People</NavLink>
        <NavLink to="/organization/models">Models</NavLink>
        <NavLink to="/organization/sources">Sources</NavLink>
      </nav>
      <Routes>
        <Route index element={<OrganizationSettings />} />
        <Route path="people/*" element={<PeopleSection />} />
        <Route path="models/*" element={<ModelsSection />} />
        <Route path="sources/*" element={<SourcesSection />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </>
  );
}
