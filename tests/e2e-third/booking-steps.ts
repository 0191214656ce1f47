import { expect, type Page } from '@playwright/test';

/** A date `n` days from today (YYYY-MM-DD), as the booking form takes it. */
export const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
/** Page text with the narrow and no-break spaces of formatted money as plain spaces. */
export const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/**
 * Grace Hopper books the Sea double for one night, 50 days ahead, through the plain-HTML steps (a
 * page without JavaScript); answers the manage page's summary text.
 */
export async function bookAsGrace(guest: Page, email: string): Promise<string> {
  const form = guest.locator('masthead-booking');
  await guest.goto('/stay');
  await form.getByLabel('Check-in').fill(day(50));
  await form.getByLabel('Check-out').fill(day(51));
  await guest.getByRole('button', { name: 'Continue' }).click();
  await form.getByLabel('Adults').fill('2');
  await form.getByLabel('Children').fill('0');
  await guest.getByRole('button', { name: 'Show rooms' }).click();
  expect(plain(await form.locator('.room').first().innerText())).toContain('€120.00 total');
  await guest.getByRole('radio', { name: /Sea double/ }).check();
  await guest.getByRole('button', { name: 'Continue' }).click();
  await form.getByLabel('First name').fill('Grace');
  await form.getByLabel('Last name').fill('Hopper');
  await form.getByLabel('E-mail').fill(email);
  await guest.getByRole('button', { name: 'Review' }).click();
  expect(plain(await form.locator('.summary').innerText())).toContain('€120.00');
  await guest.getByRole('button', { name: 'Book' }).click();
  await expect(guest).toHaveURL(/\/stay\/manage\/[\w-]+\.[\w-]+$/);
  return plain(await guest.locator('.summary').innerText());
}
