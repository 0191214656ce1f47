// Playwright's web server: the built site on E2E_PORT with the demo tokens of the contract mock.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import './check-node.mjs';
import { demoEnv } from './demo-env.mjs';

// MASTHEAD_OUT_DIR lets several builds (and e2e runs) sit side by side.
const outDir = process.env.MASTHEAD_OUT_DIR ?? './dist';
const child = spawn(process.execPath, [`${outDir}/server/entry.mjs`], {
  stdio: 'inherit',
  env: {
    // Each run starts with an empty data cache (the mock starts from its seed again).
    UPSTREAM_CACHE_DIR: mkdtempSync(join(tmpdir(), 'masthead-e2e-cache-')),
    ...process.env,
    HOST: '127.0.0.1',
    PORT: process.env.E2E_PORT ?? '4400',
    ...demoEnv(),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
