// Makes sure the Temporal CLI is there (found or built into the cache) and prints its path.
import { ensureTemporalCli, TemporalCliMissing } from './cli.ts';

try {
  console.log(ensureTemporalCli());
} catch (err) {
  if (err instanceof TemporalCliMissing) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
