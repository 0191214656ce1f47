import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Node's compile cache for the spawned doctors: from the second run on, they skip stripping the
 * types of, and compiling, every module the doctor loads (about a third of its CPU).
 */
const COMPILE_CACHE = join(tmpdir(), 'masthead-test-compile-cache');

export interface DoctorRun {
  code: number;
  out: string;
}

/**
 * `npm run doctor -- <tenant> …args` on a fork's folder `dir` (its tenants.json, findings/, and
 * profiles/ with `profiles`), as an operator runs it: its exit code and everything it printed.
 */
export function runDoctorCli(
  options: { tenant: string; dir: string; profiles?: boolean; env?: Record<string, string> },
  ...args: string[]
): Promise<DoctorRun> {
  const { tenant, dir } = options;
  const argv = [
    'scripts/doctor.ts',
    tenant,
    '--tenants',
    join(dir, 'tenants.json'),
    ...(options.profiles ? ['--profiles', join(dir, 'profiles')] : []),
    '--findings',
    join(dir, 'findings'),
    ...args,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, {
      env: { NODE_COMPILE_CACHE: COMPILE_CACHE, ...process.env, ...options.env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}
