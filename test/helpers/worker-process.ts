import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { TestEnv } from './test-env.ts';

export interface WorkerProcess {
  child: ChildProcess;
  /** SIGKILL the worker and its Chromium: a machine dying, not a shutdown. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** A real worker process (`npm run worker`) on the test file's task queues and database. */
export async function startWorkerProcess(env: TestEnv, extraEnv: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [path.resolve('src/workers/worker.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: env.databaseUrl,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TASK_QUEUE_PREFIX: env.queuePrefix,
      ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true, // its own process group, so a kill takes Chromium with it
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    async kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }, 20_000);
      await exited;
      clearTimeout(t);
      try {
        process.kill(-child.pid!, 'SIGKILL'); // any Chromium left in the group
      } catch {
        // none
      }
    },
  };
}
