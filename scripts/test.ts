// `npm test`: every suite, with one build and in two lanes at once. The browser suites wait on
// pages, servers and timers far more than they compute, so the end-to-end suite (the longest) runs
// beside everything else instead of after it; each suite has its own ports and folders, made to run
// beside the others. The first failure stops both lanes, as `&&` did.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const lanes = [
  ['test:e2e'],
  [
    'lint',
    'typecheck',
    'test:unit',
    'test:deploy',
    'test:alt',
    'test:third',
    'test:photos',
    'test:static',
  ],
];

const running = new Set<ChildProcess>();
const results: string[] = [];
let failed = false;

/** `npm run <script>` with each line of its output prefixed by its name; true when it passed. */
function run(script: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const started = Date.now();
  // Its own process group, so that a stop reaches every process of it (as Ctrl-C in a terminal).
  const child = spawn('npm', ['run', script], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: from }).on('line', (line) => to.write(`[${script}] ${line}\n`));
  }
  return new Promise((resolve) => {
    // On exit, not on the end of its output: a server it left behind may hold that open.
    child.on('exit', (code, signal) => {
      running.delete(child);
      const seconds = Math.round((Date.now() - started) / 1000);
      const outcome = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`;
      results.push(`${script}: ${outcome} in ${seconds} s`);
      resolve(code === 0);
    });
  });
}

/** Ctrl-C for every suite still running: Playwright and Vitest stop their servers on it. */
function stop(): void {
  failed = true;
  for (const { pid } of running) {
    if (pid === undefined) continue;
    try {
      process.kill(-pid, 'SIGINT');
    } catch {
      // The group has ended meanwhile.
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);

async function lane(scripts: string[], env: NodeJS.ProcessEnv): Promise<void> {
  for (const script of scripts) {
    if (failed) return;
    if (!(await run(script, env))) stop();
  }
}

const started = Date.now();
// One server build for the suites that serve this tree as it is (E2E_BUILT names it; the third
// API's fork and the static copy build their own). A suite run alone builds for itself.
const outDir = process.env['MASTHEAD_OUT_DIR'] ?? 'dist';
if (await run('build', process.env)) {
  const env = { ...process.env, E2E_BUILT: outDir };
  await Promise.all(lanes.map((scripts) => lane(scripts, env)));
} else {
  failed = true;
}
const seconds = Math.round((Date.now() - started) / 1000);
const took = `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
console.log(`\n${results.join('\n')}\nnpm test: ${failed ? 'FAILED' : 'passed'} in ${took}`);
process.exit(failed ? 1 : 0);
