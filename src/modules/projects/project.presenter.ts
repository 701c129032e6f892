import type { ProjectsRepo, ProjectWithUsers } from './projects.repo.js';
import type { ProjectView } from './projects.schemas.js';

type TeamLink = Awaited<ReturnType<ProjectsRepo['teamLinks']>>[number];
type MemberLink = Awaited<ReturnType<ProjectsRepo['memberLinks']>>[number];

function groupByProject<T extends { project_id: number }>(links: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const link of links) groups.set(link.project_id, [...(groups.get(link.project_id) ?? []), link]);
  return groups;
}

/** Presents projects with their teams and members, fetched for all of them at once. */
export function presentProjects(projects: ProjectWithUsers[], teams: TeamLink[], members: MemberLink[], includeTeams: boolean): ProjectView[] {
  const teamsOf = groupByProject(teams);
  const membersOf = groupByProject(members);
  return projects.map((project) => {
    const projectTeams = teamsOf.get(project.id) ?? [];
    return {
      id: project.id,
      organization_id: project.organization_id,
      name: project.name,
      description: project.description,
      team_ids: projectTeams.map((team) => team.id),
      users: (membersOf.get(project.id) ?? []).map(({ id, email, first_name, last_name }) => ({ id, email, first_name, last_name })),
      ...(includeTeams ? { teams: projectTeams.map(({ id, name, description }) => ({ id, name, description })) } : {}),
      created_on: project.created_on,
      created_by: project.created_by_email,
      modified_on: project.modified_on,
      modified_by: project.modified_by_email,
    };
  });
}
