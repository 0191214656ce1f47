import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';

export { freePort } from '../fixtures/net.ts';

export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(300, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => done(true));
  });
}

/** A child process that can be stopped and started again with the same command and port. */
export class Service {
  private child: ChildProcess | undefined;
  private output = '';

  readonly name: string;
  readonly port: number;
  private readonly command: string;
  private readonly args: string[];
  private readonly env: NodeJS.ProcessEnv;
  /** Resolves true once the service answers. */
  private readonly ready: () => Promise<boolean>;

  constructor(
    name: string,
    port: number,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv = process.env,
    ready: () => Promise<boolean> = () => accepts(port),
  ) {
    this.name = name;
    this.port = port;
    this.command = command;
    this.args = args;
    this.env = env;
    this.ready = ready;
  }

  get running(): boolean {
    return (
      this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null
    );
  }

  /** The process id while it runs (benchmarks read its memory). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** What the process printed (for failure messages). */
  get log(): string {
    return this.output.slice(-4000);
  }

  /** The last 20,000 characters the process printed (its log lines). */
  get printed(): string {
    return this.output;
  }

  async start(timeoutMs = 30_000): Promise<void> {
    const child = spawn(this.command, this.args, {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + timeoutMs;
    for (let delay = 50; ; delay = Math.min(delay * 2, 400)) {
      if (!this.running) throw new Error(`${this.name} exited early:\n${this.log}`);
      if (await this.ready()) return;
      if (Date.now() > deadline) throw new Error(`${this.name} did not start:\n${this.log}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** SIGTERM, then waits until the process is gone and its port is free. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    this.child = undefined;
  }
}
