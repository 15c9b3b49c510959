import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../temporal-dev/dev-server.ts';
import { pollUntil, type TestEnv } from './test-env.ts';

export interface WorkerProcess {
  child: ChildProcess;
  /** SIGKILL the worker and its Chromium: a machine dying, not a shutdown. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** The environment of a service process (API or worker) on the test file's database, Temporal and task queues. */
function serviceEnv(env: TestEnv, extraEnv: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: env.databaseUrl,
    TEMPORAL_ADDRESS: env.temporalAddress,
    TASK_QUEUE_PREFIX: env.queuePrefix,
    ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
}

/** A real worker process (`npm run worker`) on the test file's task queues and database. */
export async function startWorkerProcess(env: TestEnv, extraEnv: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [path.resolve('src/workers/worker.ts')], {
    env: serviceEnv(env, extraEnv),
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

/** Another API process (`npm run api`) on the same database and Temporal, sharing no process memory with the test's own; resolves once /healthz answers. */
export async function startApiProcess(env: TestEnv): Promise<{ api: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve('src/api/server.ts')], {
    env: serviceEnv(env, { PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const api = `http://127.0.0.1:${port}`;
  await pollUntil(
    () => fetch(`${api}/healthz`).then((r) => r.status, () => 0),
    (s) => s === 200,
    { timeoutMs: 30_000, everyMs: 200 },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    api,
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
