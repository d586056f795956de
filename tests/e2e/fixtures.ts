import { test as base, expect, type Page } from '@playwright/test';

/** Every browser test talks to the server that global setup started. */
export const test = base.extend({
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL is not set: run through playwright so global setup starts the server');
    await use(url);
  },
});

export const demoAccount = () => ({
  username: process.env.E2E_DEMO_USERNAME ?? '',
  password: process.env.E2E_DEMO_PASSWORD ?? '',
});

/** Pins the interface language so assertions read one set of texts. */
export const useEnglish = async (page: Page) => {
  await page.addInitScript(() => localStorage.setItem('umi_locale', 'en-US'));
};

export const logIn = async (page: Page) => {
  const { username, password } = demoAccount();
  await page.getByLabel('Phone number or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
};

export { expect };
