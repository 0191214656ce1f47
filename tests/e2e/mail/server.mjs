// A stand-in mail server for the e2e site (SMTP_HOST/SMTP_PORT in playwright.config.ts):
// `node tests/e2e/mail/server.mjs <smtp port> <http port>`. It accepts every message (smtp-server)
// and lists them at GET http://127.0.0.1:<http port>/messages as JSON (to, subject, text, html).
import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const smtpPort = Number(process.argv[2] ?? 4325);
const httpPort = Number(process.argv[3] ?? 4326);
const messages = [];

const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  allowInsecureAuth: true,
  onData(stream, _session, done) {
    simpleParser(stream)
      .then((mail) => {
        messages.push({
          to: mail.to?.text ?? '',
          from: mail.from?.text ?? '',
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          html: typeof mail.html === 'string' ? mail.html : '',
        });
        done();
      })
      .catch(done);
  },
});
smtp.listen(smtpPort, '127.0.0.1');

const http = createServer((request, response) => {
  if (request.url === '/health' || request.url === '/messages') {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(request.url === '/health' ? { ok: true } : messages));
    return;
  }
  response.writeHead(404).end();
});
http.listen(httpPort, '127.0.0.1', () =>
  console.log(`mail sink: smtp ${smtpPort}, http ${httpPort}`),
);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    smtp.close(() => http.close(() => process.exit(0)));
  });
