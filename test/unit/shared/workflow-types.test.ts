import { describe, expect, it } from 'vitest';
import { CRAWL_UPDATES, WORKFLOW_TYPES } from '../../../src/shared/workflow-types.ts';
import * as workflows from '../../../src/workflows/index.ts';
import { openCrawlUpdate } from '../../../src/workflows/crawl.workflow.ts';

// The API starts workflows by these names (src/api/temporal.ts, src/api/schedules.ts); a workflow
// renamed without them would leave every start failing at run time.
describe('workflow type names', () => {
  it('are the names the workflows are exported under', () => {
    expect(Object.keys(workflows).sort()).toEqual(Object.values(WORKFLOW_TYPES).sort());
    for (const name of Object.values(WORKFLOW_TYPES)) expect((workflows as Record<string, unknown>)[name], name).toBeTypeOf('function');
  });

  it('name the update the crawl workflow handles', () => {
    expect(openCrawlUpdate.name).toBe(CRAWL_UPDATES.openCrawl);
  });
});
