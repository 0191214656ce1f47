import { fileURLToPath } from 'node:url';
import { startMock } from './index.ts';

/** CLI: `npm run mock`. Configuration through MOCK_* variables (see mock/README.md). */
const mock = await startMock();
const accounts = fileURLToPath(new URL('./demo-accounts.json', import.meta.url));

console.log(`Masthead contract mock (dialect ${mock.state.dialect}, seed ${mock.state.seed}, ${mock.state.postsPerTenant} posts per tenant)
  publishing  ${mock.publishingUrl}
  lodging     ${mock.lodgingUrl}
  control     ${mock.controlUrl}
  demo accounts: ${accounts}
  limits: public ${mock.state.limits.publicPerMinute}, token ${mock.state.limits.tokenPerMinute}, lodging ${mock.state.limits.lodgingPerMinute} per ${mock.state.limits.windowSeconds} s, ${mock.state.limits.window} windows (0 = off)`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    mock.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
