// The people area's reads and the keys under which they are cached: members, teams with their
// teammates, projects with their users, the caller's API keys. Roles and who may do what follow the
// server's policies (docs/authorization.md); the server's 403 still decides.
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { SelectOption } from '../../ui/SelectField';

export type User = Schemas['User'];
export type Team = Schemas['Team'];
export type Teammate = Schemas['Teammate'];
export type Project = Schemas['Project'];
export type ApiKey = Schemas['ApiKey'];
export type OrganizationRole = User['role'];
export type TeamRole = Teammate['role'];

export const PAGE_SIZE = 20;

export const peopleKeys = {
  users: ['users'] as const,
  teams: ['people', 'teams'] as const,
  team: (teamId: number) => ['people', 'teams', teamId] as const,
  teammates: (teamId: number) => ['people', 'teams', teamId, 'members'] as const,
  projects: ['people', 'projects'] as const,
  project: (projectId: number) => ['people', 'projects', projectId] as const,
  apiKeys: ['people', 'api-keys'] as const,
};

export const fullName = (person: { first_name: string; last_name: string }) => [person.first_name, person.last_name].filter(Boolean).join(' ');

/** A person as a row names them: their name, else their e-mail. */
export const nameOf = (person: { email: string; first_name: string; last_name: string }) => fullName(person) || person.email;

export const ROLE_OPTIONS: SelectOption<OrganizationRole>[] = [
  { id: 'owner', label: 'Owner', detail: 'Everything, owners and billing included' },
  { id: 'admin', label: 'Admin', detail: 'Manages people, settings and every resource' },
  { id: 'member', label: 'Member', detail: 'Creates and changes agents, corpora, teams and projects' },
  { id: 'viewer', label: 'Viewer', detail: 'Looks, asks agents; changes nothing' },
];

export const TEAM_ROLE_OPTIONS: SelectOption<TeamRole>[] = [
  { id: 'lead', label: 'Lead', detail: 'Manages the team and its agents' },
  { id: 'editor', label: 'Editor', detail: "Changes the team's agents" },
  { id: 'viewer', label: 'Viewer', detail: "Reads the team's agents" },
];

export const roleLabel = (role: string) => ROLE_OPTIONS.find((option) => option.id === role)?.label ?? TEAM_ROLE_OPTIONS.find((option) => option.id === role)?.label ?? role;

export const usersQuery = (page: number, q: string) =>
  queryOptions({
    queryKey: [...peopleKeys.users, 'page', page, q] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/users', { params: { query: { page, page_size: PAGE_SIZE, ...(q === '' ? {} : { q }) } } }))).data,
    placeholderData: (previous) => previous,
  });

export const teamsPageQuery = (page: number) =>
  queryOptions({
    queryKey: [...peopleKeys.teams, 'page', page] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/teams', { params: { query: { page, page_size: PAGE_SIZE } } }))).data,
    placeholderData: (previous) => previous,
  });

export const teamQuery = (teamId: number) =>
  queryOptions({
    queryKey: peopleKeys.team(teamId),
    queryFn: async () => (await unwrap(api.GET('/api/v2/teams/{team_id}', { params: { path: { team_id: teamId } } }))).data,
  });

export const teammatesQuery = (teamId: number) =>
  queryOptions({
    queryKey: peopleKeys.teammates(teamId),
    queryFn: async () => (await unwrap(api.GET('/api/v2/teams/{team_id}/members', { params: { path: { team_id: teamId }, query: { page_size: 100 } } }))).data,
  });

export const projectsPageQuery = (page: number) =>
  queryOptions({
    queryKey: [...peopleKeys.projects, 'page', page] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/projects', { params: { query: { page, page_size: PAGE_SIZE } } }))).data,
    placeholderData: (previous) => previous,
  });

export const projectQuery = (projectId: number) =>
  queryOptions({
    queryKey: peopleKeys.project(projectId),
    queryFn: async () => (await unwrap(api.GET('/api/v2/projects/{project_id}', { params: { path: { project_id: projectId } } }))).data,
  });

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: peopleKeys.apiKeys,
    queryFn: async () => (await unwrap(api.GET('/api/v2/auth/api-keys'))).data.items,
  });

/** A date and time as the reader's locale writes it. */
export const when = (timestamp: string | null) => (timestamp === null ? '—' : new Date(timestamp).toLocaleString());
