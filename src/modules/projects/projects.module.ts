import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { projectsRoutes } from './projects.routes.js';
import { ProjectsService } from './projects.service.js';

export const projectsModule: AppModule = { name: 'projects', routes: [projectsRoutes] };

export function buildProjectsServices({ store, notifications }: SharedServices) {
  return { projects: new ProjectsService(store, notifications) };
}
