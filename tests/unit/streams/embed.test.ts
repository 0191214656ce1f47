import { describe, expect, it } from 'vitest';
import { sanitizePostHtml } from '../../../src/lib/content/sanitize.ts';
import {
  allowedPlayerUrl,
  iframeSrc,
  playerHosts,
  providerName,
  streamPlayer,
} from '../../../src/lib/streams/embed.ts';
import { webUrl } from '../../../src/lib/upstream/parse.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const HOSTS = playerHosts(
  buildTenant({
    publishing: {
      baseUrl: 'https://api.example.com/api/v1',
      embedHosts: ['127.0.0.1', 'player.example.tv'],
    },
  }),
);
const SITE = 'http://daily-planet.localhost:4412';

describe('player hosts', () => {
  it('are YouTube’s and Vimeo’s standard embed hosts and the tenant’s own', () => {
    expect(HOSTS).toEqual([
      'www.youtube-nocookie.com',
      'youtube-nocookie.com',
      'www.youtube.com',
      'youtube.com',
      'player.vimeo.com',
      '127.0.0.1',
      'player.example.tv',
    ]);
  });
});

describe('iframe src from embed HTML', () => {
  it.each([
    [
      '<iframe src="https://player.vimeo.com/video/1?a=1&amp;b=2"></iframe>',
      'https://player.vimeo.com/video/1?a=1&b=2',
    ],
    ["<iframe width='1' src='https://x.test/a'></iframe>", 'https://x.test/a'],
    ['<IFRAME title="t" SRC=https://x.test/b></IFRAME>', 'https://x.test/b'],
    [
      '<p>one</p><iframe src="https://x.test/1"></iframe><iframe src="https://x.test/2"></iframe>',
      'https://x.test/1',
    ],
    ['<iframe data-src="https://x.test/lazy"></iframe>', null],
    ['<iframe src=""></iframe>', null],
    ['<video src="https://x.test/v.mp4"></video>', null],
    ['', null],
    [null, null],
  ])('%s → %s', (html, expected) => {
    expect(iframeSrc(html)).toBe(expected);
  });
});

describe('allowed player addresses', () => {
  it.each([
    ['https://www.youtube-nocookie.com/embed/abc', true],
    ['https://youtube-nocookie.com/embed/abc', true],
    ['https://player.vimeo.com/video/1', true],
    ['https://live.player.example.tv/x', true],
    ['http://127.0.0.1:4010/player/daily-planet/x?embed=1', true],
    ['https://www.youtube.com/embed/abc', true],
    ['https://youtube.com/embed/abc?start=10', true],
    ['https://www.youtube.com/watch?v=abc', false],
    ['https://www.youtube.com/@channel', false],
    ['https://vimeo.com/1', false],
    ['https://evil.example/player', false],
    ['https://player.vimeo.com.evil.example/x', false],
    ['https://notplayer.example.tv/x', false],
    ['http://player.vimeo.com/video/1', false],
    ['https://user:pw@player.vimeo.com/video/1', false],
    ['javascript:alert(1)', false],
    ['//player.vimeo.com/video/1', false],
    ['not a url', false],
  ])('%s → %s', (candidate, allowed) => {
    expect(allowedPlayerUrl(candidate, HOSTS) !== null).toBe(allowed);
  });

  it('allows only the listed port of an entry that names one', () => {
    const pinned = ['127.0.0.1:4010', 'player.example.tv:8443', 'cdn.example.tv:443'];
    expect(allowedPlayerUrl('http://127.0.0.1:4010/player/x', pinned)).not.toBeNull();
    expect(allowedPlayerUrl('http://127.0.0.1:4321/player/x', pinned)).toBeNull();
    expect(allowedPlayerUrl('http://127.0.0.1/player/x', pinned)).toBeNull();
    expect(allowedPlayerUrl('https://live.player.example.tv:8443/x', pinned)).not.toBeNull();
    expect(allowedPlayerUrl('https://live.player.example.tv/x', pinned)).toBeNull();
    expect(allowedPlayerUrl('https://cdn.example.tv/x', pinned)).not.toBeNull();
    expect(allowedPlayerUrl('https://cdn.example.tv:8443/x', pinned)).toBeNull();
  });

  it('refuses the site’s own origin (the sandbox would not hold)', () => {
    const hosts = [...HOSTS, 'daily-planet.localhost'];
    expect(allowedPlayerUrl(`${SITE}/player`, hosts, SITE)).toBeNull();
    expect(allowedPlayerUrl(`${SITE}/player`, hosts)).not.toBeNull();
    // The page rendered for `X-Forwarded-Proto: http` is the copy https visitors get too.
    const secure = SITE.replace(/^http:/, 'https:');
    expect(allowedPlayerUrl(`${secure}/player`, hosts, SITE)).toBeNull();
    expect(allowedPlayerUrl(`${SITE}/player`, hosts, secure)).toBeNull();
  });
});

describe('the player a stream gets', () => {
  const mock = {
    title: 'City Council Live',
    provider: 'masthead-player',
    watch_url: 'http://127.0.0.1:4010/player/daily-planet/council',
    stream_url: 'http://127.0.0.1:4010/player/daily-planet/council?embed=1',
    embed_code:
      '<iframe src="http://127.0.0.1:4010/player/daily-planet/council?embed=1" width="1280" height="720" title="City Council Live" allow="autoplay" allowfullscreen></iframe>',
  };

  it.each([
    [
      'the sanitized embed src',
      mock,
      {
        kind: 'embed',
        src: 'http://127.0.0.1:4010/player/daily-planet/council?embed=1',
        origin: 'http://127.0.0.1:4010',
      },
    ],
    [
      'stream_url when the embed is missing',
      { ...mock, embed_code: null, stream_url: 'https://player.vimeo.com/video/9' },
      {
        kind: 'embed',
        src: 'https://player.vimeo.com/video/9',
        origin: 'https://player.vimeo.com',
      },
    ],
    [
      'stream_url when the embed host is not allowed',
      {
        ...mock,
        embed_code: '<iframe src="https://evil.example/p"></iframe>',
        stream_url: 'https://www.youtube-nocookie.com/embed/x',
      },
      {
        kind: 'embed',
        src: 'https://www.youtube-nocookie.com/embed/x',
        origin: 'https://www.youtube-nocookie.com',
      },
    ],
    [
      'a link when no host is allowed',
      {
        ...mock,
        provider: 'twitch',
        embed_code: '<iframe src="https://player.twitch.tv/?channel=x"></iframe>',
        stream_url: 'https://player.twitch.tv/?channel=x',
        watch_url: 'https://www.twitch.tv/x',
      },
      {
        kind: 'link',
        href: 'https://www.twitch.tv/x',
        provider: 'Twitch',
      },
    ],
    [
      'nothing when the watch URL is not a web address',
      { ...mock, embed_code: null, stream_url: null, watch_url: 'javascript:alert(1)' },
      { kind: 'none' },
    ],
  ])('uses %s', (_name, stream, expected) => {
    expect(streamPlayer(stream, HOSTS, SITE)).toEqual(expected);
  });

  it('works on what the client keeps after sanitizing', () => {
    const iframeHosts = HOSTS;
    const kept = sanitizePostHtml(mock.embed_code, { iframeHosts });
    expect(streamPlayer({ ...mock, embed_code: kept, stream_url: null }, HOSTS, SITE).kind).toBe(
      'embed',
    );
    const dropped = sanitizePostHtml('<iframe src="https://evil.example/p"></iframe>', {
      iframeHosts,
    });
    expect(dropped).toBe('');
    expect(
      streamPlayer({ ...mock, embed_code: dropped, stream_url: null }, HOSTS, SITE),
    ).toMatchObject({ kind: 'link', provider: 'Masthead Player' });
  });
});

describe('names and links', () => {
  it.each([
    ['masthead-player', null, 'Masthead Player'],
    ['youtube', null, 'YouTube'],
    ['Vimeo', null, 'Vimeo'],
    ['acme_live tv', null, 'Acme Live Tv'],
    [null, 'https://www.example.tv/watch', 'example.tv'],
    [null, null, 'the provider’s site'],
  ])('provider %s (%s) → %s', (provider, watchUrl, expected) => {
    expect(providerName(provider, watchUrl)).toBe(expected);
  });

  it.each([
    ['https://x.test/a', 'https://x.test/a'],
    ['http://x.test/a', 'http://x.test/a'],
    ['javascript:alert(1)', null],
    ['data:text/html,hi', null],
    ['/relative', null],
    [undefined, null],
  ])('web link %s → %s', (candidate, expected) => {
    expect(webUrl(candidate)).toBe(expected);
  });
});
