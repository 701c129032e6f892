// People (/organization/people/*): members, teams, projects and the caller's API keys, each a tab
// with its own address, so a reload or a shared link keeps it.
import { NavLink, Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import { ApiKeysPage } from './ApiKeysPage';
import { MembersPage } from './MembersPage';
import { ProjectPage } from './ProjectPage';
import { ProjectsPage } from './ProjectsPage';
import { TeamPage } from './TeamPage';
import { TeamsPage } from './TeamsPage';
import './people.css';

export default function PeopleSection() {
  return (
    <>
      <nav className="tabs-nav people-tabs" aria-label="People">
        <NavLink to="/organization/people" end>
          Members
        </NavLink>
        <NavLink to="/organization/people/teams">Teams</NavLink>
        <NavLink to="/organization/people/projects">Projects</NavLink>
        <NavLink to="/organization/people/api-keys">API keys</NavLink>
      </nav>
      <Routes>
        <Route index element={<MembersPage />} />
        <Route path="teams" element={<TeamsPage />} />
        <Route path="teams/:teamId" element={<TeamPage />} />
        <Route path="projects" element={<ProjectsPage />} />
        <Route path="projects/:projectId" element={<ProjectPage />} />
        <Route path="api-keys" element={<ApiKeysPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </>
  );
}
