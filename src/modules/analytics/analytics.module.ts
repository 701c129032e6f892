import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsService } from './analytics.service.js';

export const analyticsModule: AppModule = { name: 'analytics', routes: [analyticsRoutes] };

export function buildAnalyticsServices({ store }: SharedServices, { corpora }: { corpora: CorporaService }) {
  return { analytics: new AnalyticsService(store, corpora) };
}
