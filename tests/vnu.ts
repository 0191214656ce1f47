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

/** The errors (not warnings) the checker reports for every `.html` file under `folder`. */
export async function vnuErrors(folder: string): Promise<VnuMessage[]> {
  const { stdout, stderr } = await promisify(execFile)(
    process.env.JAVA ?? 'java',
    [
      '-jar',
      VNU_JAR,
      '--errors-only',
      '--skip-non-html',
      '--exit-zero-always',
      '--format',
      'json',
      folder,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  // The report goes to stderr; anything that is not JSON is the checker failing to run.
  const report = JSON.parse(stderr || stdout) as { messages: VnuMessage[] };
  return report.messages.filter((message) => message.type === 'error');
}

/** Errors known and accepted for now, each with its reason; any other error fails a test. */
const EXPECTED: { message: RegExp; extract: RegExp }[] = [
  {
    // The stream player's sandbox keeps `allow-same-origin` (players such as YouTube's need their
    // own storage). The checker's concern, a same-origin frame lifting its own sandbox, cannot
    // arise: the player is never the page's own origin (src/lib/streams/embed.ts refuses that).
    message:
      /^Bad value “allow-scripts allow-same-origin allow-presentation” for attribute “sandbox” on element “iframe”/,
    extract: /\/player\/|youtube|vimeo/,
  },
];

/** The errors not listed as expected above. */
export function unexpected(errors: readonly VnuMessage[]): VnuMessage[] {
  return errors.filter(
    (error) =>
      !EXPECTED.some(
        (known) => known.message.test(error.message) && known.extract.test(error.extract ?? ''),
      ),
  );
}

/** One line per error: file, line, message and the markup around it. */
export function describeErrors(errors: readonly VnuMessage[]): string[] {
  return errors.map(
    (error) =>
      `${error.url.split('/').at(-1) ?? error.url}:${error.lastLine ?? '?'} ${error.message}` +
      (error.extract ? ` — ${error.extract.replace(/\s+/g, ' ').trim()}` : ''),
  );
}
