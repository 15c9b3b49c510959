import { loadConfig } from '../config.ts';
import path from 'node:path';
import { ensureWorkflowBundle } from './workflow-bundle.ts';

const config = loadConfig();
const file = await ensureWorkflowBundle(path.join(config.dataDir, 'bundles'));
console.log(`workflow bundle: ${file}`);
