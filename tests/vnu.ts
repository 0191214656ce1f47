import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

// The W3C Nu HTML checker (npm `vnu-jar`, run with the machine's Java 17): one invocation over a
// folder of saved pages, so the JVM starts once (issue 38).
const VNU_JAR = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');

export interface VnuMessage {
  /** The checked file (`file:/…/daily-planet--post.html`). */
  url: string;
  type: string;
  subType?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/**
 * The errors (not warnings) the checker reports for every `.html` file under `folder`, at the
 * checker's own levels. Not `--errors-only`: that mode reports some warnings as errors, among them
 * "Potentially bad value … allow-scripts allow-same-origin" on the stream player's sandbox, which
 * the checker (and validator.w3.org) rates a warning (validator/validator#361). The player keeps
 * `allow-same-origin` (YouTube's needs its own storage); the warning's case, a same-origin frame
 * lifting its own sandbox, cannot arise: src/lib/streams/embed.ts refuses a same-origin player.
 */
export async function vnuErrors(folder: string): Promise<VnuMessage[]> {
  const { stdout, stderr } = await promisify(execFile)(
    process.env.JAVA ?? 'java',
    ['-jar', VNU_JAR, '--skip-non-html', '--exit-zero-always', '--format', 'json', folder],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  // The report goes to stderr; anything that is not JSON is the checker failing to run.
  const report = JSON.parse(stderr || stdout) as { messages: VnuMessage[] };
  return report.messages.filter((message) => message.type === 'error');
}

/** One line per error: file, line, message and the markup around it. */
export function describeErrors(errors: readonly VnuMessage[]): string[] {
  return errors.map(
    (error) =>
      `${error.url.split('/').at(-1) ?? error.url}:${error.lastLine ?? '?'} ${error.message}` +
      (error.extract ? ` — ${error.extract.replace(/\s+/g, ' ').trim()}` : ''),
  );
}
