import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { configurationsRoutes } from './configurations.routes.js';
import { ConfigurationsService } from './configurations.service.js';
import { organizationsRoutes } from './organizations.routes.js';
import { OrganizationsService } from './organizations.service.js';

export const organizationsModule: AppModule = { name: 'organizations', routes: [organizationsRoutes, configurationsRoutes] };

export function buildOrganizationsServices({ store, blobs }: SharedServices) {
  return {
    organizations: new OrganizationsService(store, blobs),
    configurations: new ConfigurationsService(store),
  };
}
