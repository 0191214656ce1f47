// A stand-in partner site for the embed e2e tests: `node tests/e2e/partner/server.mjs <port>`.
// GET /?site=<address>&property=<uuid>[&check-in=…&adults=…] serves a page with the one-tag embed:
// every parameter but `site` becomes a data-* attribute of the script (unknown ones too, to test
// that the loader reports them); confirmations posted by the widget go to `window.confirmations`.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? process.env.PARTNER_PORT ?? 4322);
const escape = (value) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The loader's address on `site`, which may name the tenant by path (`/<id>`) or query (`?tenant=`). */
const scriptSrc = (site) => {
  const at = new URL(site);
  return `${at.origin}${at.pathname.replace(/\/$/, '')}/embed/booking.js${at.search}`;
};

/** The snippet's <noscript> link as docs/booking-partners.md writes it: the deep link of the tag. */
function noscriptLink(site, params) {
  const link = new URL('/stay', site);
  const names = {
    property: 'property',
    'check-in': 'checkIn',
    'check-out': 'checkOut',
    adults: 'adults',
  };
  for (const [name, key] of Object.entries(names)) {
    const value = params.get(name);
    if (value) link.searchParams.set(key, value);
  }
  return link.href;
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
  if (url.pathname === '/health') {
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  if (url.pathname !== '/') {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  const site = url.searchParams.get('site') ?? 'http://harbour-times.localhost:4400';
  const data = [...url.searchParams]
    .filter(([name]) => name !== 'site' && /^[a-z][a-z0-9-]*$/.test(name))
    .map(([name, value]) => ` data-${name}="${escape(value)}"`)
    .join('');
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Partner travel blog</title></head>
<body>
<main>
<h1>Our favourite harbour hotel</h1>
<p>Book directly below.</p>
<script>
window.confirmations = [];
window.domConfirmations = [];
window.events = [];
window.addEventListener('message', function (e) {
  if (e.data && typeof e.data.event === 'string') window.events.push(e.data);
  if (e.data && e.data.type === 'masthead:booking-confirmed') window.confirmations.push({ origin: e.origin, booking: e.data.booking });
});
document.addEventListener('masthead:booking-confirmed', function (e) { window.domConfirmations.push(e.detail); });
</script>
<script src="${escape(scriptSrc(site))}"${data} async></script>
<noscript><a href="${escape(noscriptLink(site, url.searchParams))}">Book at Harbour Times</a></noscript>
<p>Text after the widget.</p>
</main>
</body>
</html>`);
});

server.listen(port, '127.0.0.1', () => console.log(`partner page on http://127.0.0.1:${port}`));
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => server.close(() => process.exit(0)));
