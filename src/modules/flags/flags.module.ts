import type { AppModule } from '../app-module.js';
import { flagsRoutes } from './flags.routes.js';

/** Its service is one of the shared ones (src/shared-services.ts): most modules consult the flags. */
export const flagsModule: AppModule = { name: 'flags', routes: [flagsRoutes] };
