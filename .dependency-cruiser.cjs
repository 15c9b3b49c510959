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
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    reporterOptions: { text: { highlightFocused: true } },
  },
};
