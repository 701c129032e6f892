// Route-level hooks as onRoute hands them over: absent, one, or a list.
/** The route's hooks of one kind as a list, to add one of ours before or after them. */
export function routeHooks<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
