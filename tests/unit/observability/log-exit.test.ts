import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const log = fileURLToPath(new URL('../../../src/lib/log/log.ts', import.meta.url));

describe('log lines written in the background', () => {
  it('reach stderr even when the process exits straight after logging them', () => {
    const script = [
      `const { logInfo } = await import(${JSON.stringify(log)});`,
      `for (let i = 0; i < 20_000; i += 1) logInfo('test.line', { n: i });`,
      'process.exit(3);',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    expect(child.status).toBe(3);
    const lines = child.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event: string; n: number });
    expect(lines.filter((line) => line.event === 'test.line').map((line) => line.n)).toEqual(
      Array.from({ length: 20_000 }, (_, i) => i),
    );
  });
});
