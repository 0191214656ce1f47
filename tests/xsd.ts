import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// Sitemaps against the schemas crawlers' validators use (tests/fixtures/xsd/, issue 38), with the
// JDK's own XML Schema validator: the Java that runs the Nu checker, no other tool to install.
const dir = (name: string) => fileURLToPath(new URL(`fixtures/xsd/${name}`, import.meta.url));
const PROGRAM = dir('Validate.java');

/** The schemas a file is checked against, by its root element. */
export const SITEMAP_SCHEMAS = {
  /** A sitemap index. */
  index: [dir('siteindex.xsd')],
  /** A sitemap, with Google's news extension for the news sitemap's `<news:news>`. */
  urlset: [dir('sitemap.xsd'), dir('sitemap-news.xsd')],
};

export interface XsdMessage {
  level: 'warning' | 'error' | 'fatal';
  file: string;
  /** `line:column` */
  at: string;
  message: string;
}

/** Every schema warning and error in `files` (a file that validates adds nothing). */
export async function xsdMessages(
  groups: { schemas: readonly string[]; files: readonly string[] }[],
): Promise<XsdMessage[]> {
  const args = [PROGRAM];
  for (const group of groups) {
    if (group.files.length === 0) continue;
    args.push('--schemas', group.schemas.join(','), ...group.files);
  }
  if (args.length === 1) return [];
  const { stdout } = await promisify(execFile)(process.env.JAVA ?? 'java', args, {
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [level, file, at, ...message] = line.split('\t');
      return { level, file, at, message: message.join('\t') } as XsdMessage;
    });
}

/** Sitemap files checked against the schema their root element calls for. */
export function sitemapMessages(files: readonly { path: string; body: string }[]) {
  const isIndex = (body: string) => /<sitemapindex[\s>]/.test(body);
  return xsdMessages([
    {
      schemas: SITEMAP_SCHEMAS.index,
      files: files.filter((f) => isIndex(f.body)).map((f) => f.path),
    },
    {
      schemas: SITEMAP_SCHEMAS.urlset,
      files: files.filter((f) => !isIndex(f.body)).map((f) => f.path),
    },
  ]);
}

/** `file line:column message`, one per line, for a failure's message. */
export const describeXsd = (messages: readonly XsdMessage[]): string[] =>
  messages.map((m) => `${m.file} ${m.at} ${m.level}: ${m.message}`);
