// The import graph's own rules, checked by `npm run lint` (ESLint checks each import; these need the
// whole graph). Run alone: npx depcruise src --config .dependency-cruiser.cjs
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycle in src, type imports included: each part can be read, tested and loaded on its own.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'api-loads-no-worker-code',
      comment:
        'The API process only accepts requests and starts workflows: nothing it loads, however indirectly, is audit, discovery, enrichment, activity or worker code (type imports included, so the shapes it shares live in src/shared).',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/(audit|discovery|enrichment|activities|workers)/', reachable: true },
    },
    {
      name: 'no-activity-imports-another',
      comment:
        'Activities are thin adapters from a task queue to the domain modules: one activity folder never imports another (what two need lives in a domain module, or in a shared adapter at src/activities/ top level).',
      severity: 'error',
      from: { path: '^src/activities/([^/]+)/' },
      to: { path: '^src/activities/[^/]+/', pathNot: '^src/activities/$1/' },
    },
    {
      name: 'audit-and-discovery-independent',
      comment: 'The audit (what a page fails) and discovery (which pages there are) do not know each other, type imports included: what both need lives in src/shared, and the activities put them together.',
      severity: 'error',
      from: { path: '^src/(audit|discovery)/' },
      to: { path: '^src/(audit|discovery)/', pathNot: '^src/$1/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    reporterOptions: { text: { highlightFocused: true } },
  },
};
