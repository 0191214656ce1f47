import { describe, expect, it } from 'vitest';
import { sanitizePostHtml } from '../../../src/lib/content/sanitize.ts';

describe('sanitizePostHtml keeps', () => {
  it.each([
    ['headings', '<h2>Title</h2><h3>Sub</h3>', '<h2>Title</h2><h3>Sub</h3>'],
    [
      'paragraphs and inline',
      '<p><em>a</em> <strong>b</strong> <code>c</code></p>',
      '<p><em>a</em> <strong>b</strong> <code>c</code></p>',
    ],
    [
      'lists',
      '<ul><li>a</li></ul><ol start="3"><li>b</li></ol>',
      '<ul><li>a</li></ul><ol start="3"><li>b</li></ol>',
    ],
    [
      'blockquote and pre',
      '<blockquote><p>q</p></blockquote><pre><code class="language-js">x</code></pre>',
      '<blockquote><p>q</p></blockquote><pre><code class="language-js">x</code></pre>',
    ],
    [
      'tables, reachable by keyboard when they scroll sideways',
      '<table tabindex="-1"><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>',
      '<table tabindex="0"><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>',
    ],
    [
      'figures',
      '<figure><img src="https://cdn.example/a.jpg" alt="A" width="10" height="5" /><figcaption>c</figcaption></figure>',
      '<figure><img src="https://cdn.example/a.jpg" alt="A" width="10" height="5" loading="lazy" /><figcaption>c</figcaption></figure>',
    ],
    [
      'mailto links without rel',
      '<a href="mailto:desk@example.com">mail</a>',
      '<a href="mailto:desk@example.com">mail</a>',
    ],
    [
      'external links with rel',
      '<a href="https://example.org/x">x</a>',
      '<a href="https://example.org/x" rel="noopener noreferrer">x</a>',
    ],
    [
      'youtube-nocookie iframes',
      '<iframe src="https://www.youtube-nocookie.com/embed/abc" width="560"></iframe>',
      '<iframe src="https://www.youtube-nocookie.com/embed/abc" width="560" loading="lazy"></iframe>',
    ],
    [
      'vimeo player iframes',
      '<iframe src="https://player.vimeo.com/video/1"></iframe>',
      '<iframe src="https://player.vimeo.com/video/1" loading="lazy"></iframe>',
    ],
    [
      'allowfullscreen where allow already grants fullscreen (no console warning)',
      '<iframe src="https://player.vimeo.com/video/1" allow="autoplay; fullscreen" allowfullscreen></iframe>',
      '<iframe src="https://player.vimeo.com/video/1" allow="autoplay; fullscreen" loading="lazy"></iframe>',
    ],
    [
      'allowfullscreen where allow does not mention fullscreen',
      '<iframe src="https://player.vimeo.com/video/1" allow="autoplay" allowfullscreen></iframe>',
      '<iframe src="https://player.vimeo.com/video/1" allow="autoplay" allowfullscreen loading="lazy"></iframe>',
    ],
  ])('%s', (_name, input, expected) => {
    expect(sanitizePostHtml(input)).toBe(expected);
  });
});

describe('sanitizePostHtml drops', () => {
  it.each([
    ['script with content', '<p>a</p><script>alert(1)</script>', '<p>a</p>'],
    ['style with content', '<style>body{}</style><p>a</p>', '<p>a</p>'],
    [
      'event handlers',
      '<p onclick="x()">a</p><img src="https://e.x/i.png" onerror="x()">',
      '<p>a</p><img src="https://e.x/i.png" loading="lazy" />',
    ],
    ['javascript: links', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['obfuscated javascript: links', '<a href="jav&#x09;ascript:alert(1)">x</a>', '<a>x</a>'],
    ['data: images', '<img src="data:image/png;base64,AAAA" alt="x">', ''],
    ['javascript: images', '<img src="javascript:alert(1)">', ''],
    ['iframes from other hosts', '<iframe src="https://evil.example/embed"></iframe>', ''],
    ['protocol-relative iframes', '<iframe src="//www.youtube-nocookie.com/embed/x"></iframe>', ''],
    ['forms and inputs', '<form action="/x"><input name="a"></form>', ''],
    ['objects', '<object data="x.swf"></object><embed src="x.swf">', ''],
    ['style attributes', '<p style="position:fixed">a</p>', '<p>a</p>'],
    [
      'a user-set rel on external links is replaced',
      '<a href="https://e.x" rel="opener">x</a>',
      '<a href="https://e.x" rel="noopener noreferrer">x</a>',
    ],
  ])('%s', (_name, input, expected) => {
    expect(sanitizePostHtml(input)).toBe(expected);
  });
});

describe('sanitizePostHtml options', () => {
  it('allows an extra iframe host (the mock player)', () => {
    const html = '<iframe src="http://127.0.0.1:4010/player/live-1"></iframe>';
    expect(sanitizePostHtml(html)).toBe('');
    expect(sanitizePostHtml(html, { iframeHosts: ['127.0.0.1'] })).toBe(
      '<iframe src="http://127.0.0.1:4010/player/live-1" loading="lazy"></iframe>',
    );
  });

  it('drops relative URLs when the upstream is unknown, so browsers never ask this site for them', () => {
    expect(sanitizePostHtml('<p>a<img src="x" alt="x">b</p>')).toBe('<p>ab</p>');
    expect(sanitizePostHtml('<a href="/other">x</a>')).toBe('<a>x</a>');
    expect(sanitizePostHtml('<p>a<img src="//cdn.example/x.jpg">b</p>')).toBe('<p>ab</p>');
    expect(sanitizePostHtml('<a href="#notes">n</a>')).toBe('<a href="#notes">n</a>');
  });

  it('keeps YouTube’s standard embed host on its player path only', () => {
    expect(sanitizePostHtml('<iframe src="https://www.youtube.com/embed/abc"></iframe>')).toContain(
      'src="https://www.youtube.com/embed/abc"',
    );
    expect(sanitizePostHtml('<iframe src="https://www.youtube.com/watch?v=abc"></iframe>')).toBe(
      '',
    );
  });
});

describe('sanitizePostHtml with the upstream’s address (a CMS on https://cms.example)', () => {
  const baseUrl = 'https://cms.example/api/v1';
  const clean = (html: string) => sanitizePostHtml(html, { baseUrl });

  it.each([
    [
      'a root-relative image',
      '<img src="/storage/x.jpg" alt="x">',
      '<img src="https://cms.example/storage/x.jpg" alt="x" loading="lazy" />',
    ],
    [
      'a document-relative image (against the origin, not /api/v1)',
      '<img src="storage/x.jpg">',
      '<img src="https://cms.example/storage/x.jpg" loading="lazy" />',
    ],
    [
      'a protocol-relative image, with the API’s scheme',
      '<img src="//cdn.example/x.jpg">',
      '<img src="https://cdn.example/x.jpg" loading="lazy" />',
    ],
    [
      'a relative link to another page of the CMS site (external, so with rel)',
      '<a href="/about?x=1#team">x</a>',
      '<a href="https://cms.example/about?x=1#team" rel="noopener noreferrer">x</a>',
    ],
    [
      'a link to a post: this site’s own post route, kept as a path',
      '<a href="/posts/other-story">x</a>',
      '<a href="/posts/other-story">x</a>',
    ],
    [
      'a post link with a fragment',
      '<a href="/posts/other-story#comments">x</a>',
      '<a href="/posts/other-story#comments">x</a>',
    ],
    [
      'a deeper /posts/ path, which is not the post route',
      '<a href="/posts/a/b">x</a>',
      '<a href="https://cms.example/posts/a/b" rel="noopener noreferrer">x</a>',
    ],
    [
      'every srcset candidate',
      '<img src="/a.jpg" srcset="/a-480.jpg 480w, //cdn.example/a-960.jpg 960w,https://img.example/a.jpg 2x" sizes="50vw">',
      '<img src="https://cms.example/a.jpg" srcset="https://cms.example/a-480.jpg 480w, https://cdn.example/a-960.jpg 960w, https://img.example/a.jpg 2x" sizes="50vw" loading="lazy" />',
    ],
    [
      'a protocol-relative player iframe on an allowed host',
      '<iframe src="//www.youtube-nocookie.com/embed/x"></iframe>',
      '<iframe src="https://www.youtube-nocookie.com/embed/x" loading="lazy"></iframe>',
    ],
  ])('resolves %s', (_label, input, expected) => {
    expect(clean(input)).toBe(expected);
  });

  it.each([
    ['javascript: links', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['data: images', '<img src="data:image/png;base64,AAAA">', ''],
    [
      'javascript: srcset candidates (the rest stay)',
      '<img src="/a.jpg" srcset="javascript:alert(1) 1x, /a2.jpg 2x">',
      '<img src="https://cms.example/a.jpg" srcset="https://cms.example/a2.jpg 2x" loading="lazy" />',
    ],
    [
      'protocol-relative iframes from other hosts',
      '<iframe src="//evil.example/embed"></iframe>',
      '',
    ],
    ['relative iframes (the CMS is no player host)', '<iframe src="/player/1"></iframe>', ''],
  ])('still drops %s', (_label, input, expected) => {
    expect(clean(input)).toBe(expected);
  });

  it('keeps post links without a base too: they never depended on it', () => {
    expect(sanitizePostHtml('<a href="/posts/x">x</a>')).toBe('<a href="/posts/x">x</a>');
  });
});
