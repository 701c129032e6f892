import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { teamsRoutes } from './teams.routes.js';
import { TeamsService } from './teams.service.js';

export const teamsModule: AppModule = { name: 'teams', routes: [teamsRoutes] };

export function buildTeamsServices({ store, notifications }: SharedServices) {
  return { teams: new TeamsService(store, notifications) };
}
