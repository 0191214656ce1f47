import nodemailer from 'nodemailer';

/** Where guests' e-mails go out (`SMTP_*` settings). */
export interface SmtpSettings {
  host: string;
  port: number;
  user?: string | undefined;
  password?: string | undefined;
  from?: string | undefined;
}

export interface Mail {
  to: string;
  /** Shown as the sender's name (the tenant's). */
  fromName: string;
  /** Where a reply goes (the tenant's lodging contact), else to the sending address. */
  replyTo?: string | undefined;
  subject: string;
  /** The plain-text part, for every mail client. */
  text: string;
  html: string;
}

/** Sends one e-mail; rejects when the mail server did not take it. */
export type Mailer = (mail: Mail) => Promise<void>;

/** A mailer over SMTP (nodemailer): short timeouts, so a slow mail server never holds a booking. */
export function smtpMailer(smtp: SmtpSettings): Mailer {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.port === 465,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10_000,
  });
  const address = smtp.from ?? (smtp.user?.includes('@') ? smtp.user : `no-reply@${smtp.host}`);
  return async ({ fromName, ...mail }) => {
    await transport.sendMail({ from: { name: fromName, address }, ...mail });
  };
}
