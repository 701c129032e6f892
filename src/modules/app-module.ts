// What a module adds to the app. Each feature folder's `<name>.module.ts` exports its module (the
// routes it serves) and, where it has services, the function that builds them from what they depend
// on (`build<Name>Services`), which also hands the worker the handlers of the jobs the module owns.
// src/app-modules.ts lists the modules, src/services.ts calls their builders: two orders, because
// routes are registered in the order the API document lists them, services built in the order they
// depend on each other.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export interface AppModule {
  /** The feature's name, as its folder says it. */
  readonly name: string;
  /**
   * Its route plugins, registered in this order (the OpenAPI document lists paths in the order
   * they were registered, so a change of order is a change of the document).
   */
  readonly routes: readonly FastifyPluginAsyncTypebox[];
}
