// Issue 24, "In every language": in Arabic on a 390 px phone, Rewards and Offers show the tenant's
// content in Arabic (catalogue, vouchers, tier, ledger labels; offer titles, descriptions and
// banners), nothing of it left in English, and the document title follows the route in Arabic.
// With E2E_SCREENS=<dir>, the two pages' screenshots are written there
// (docs/screens/rewards-ar-phone.png, offers-ar-phone.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, shoot, signIn } from './helpers.mjs';

/** The English of the demo content (config/tenant.json) that must not show on an Arabic page. */
const DEMO_ENGLISH = [
  'Free coffee',
  '$10 voucher',
  'Canvas tote bag',
  'Personal styling session',
  'Free shipping',
  'Gold',
  'Platinum',
  'Birthday bonus',
  'Welcome bonus',
  'Double points this weekend',
  'Birthday gift',
  'Free alterations',
  'Happy birthday',
  'Activate now',
  'My account',
  'Online',
];

/** Text on the page (the frame and the tab's page) still in one of the demo's English texts. */
function englishLeft(page) {
  return page.evaluate((words) => {
    const text = document.body.innerText;
    return words.filter((w) => new RegExp(`(^|[^A-Za-z])${w.replace(/[$]/g, '\\$&')}([^A-Za-z]|$)`).test(text));
  }, DEMO_ENGLISH);
}

test('Rewards and Offers in Arabic on a phone: the tenant’s content and the title in Arabic', async () => {
  const page = await newPage({ width: 390, height: 844 });
  await signIn(page);

  await page.goto(`${BASE}/rewards?lang=ar`);
  await page.waitForFunction(() => document.documentElement.lang === 'ar' && document.documentElement.dir === 'rtl');
  // The catalogue, the vouchers, the tier and the ledger, each from the tenant's Arabic.
  await page.getByRole('heading', { level: 3, name: 'قهوة مجانية' }).waitFor();
  await page.getByRole('heading', { level: 3, name: 'جلسة تنسيق أزياء شخصية' }).waitFor();
  await page.getByRole('link', { name: 'قسيمة بقيمة 10 $' }).first().waitFor();
  await page.getByRole('link', { name: 'شحن مجاني' }).waitFor();
  await page.getByText('ذهبي', { exact: false }).first().waitFor();
  await page.locator('.ledger__what', { hasText: 'مكافأة عيد الميلاد' }).first().waitFor();
  await page.waitForFunction(() => document.title === 'المكافآت · حسابي');
  // The site's name in Arabic beside the logo (a mark without words), on a phone too.
  assert.equal(await page.locator('.header__title').textContent(), 'حسابي');
  assert.ok(await page.locator('.header__title').isVisible());
  assert.deepEqual(await englishLeft(page), [], 'no demo content left in English on Rewards');
  await shoot(page, 'rewards-ar-phone.png');

  // In the app (no load): the title follows the route.
  await page.locator('.tabs a[href="/offers"]').click();
  await page.waitForFunction(() => document.title === 'العروض · حسابي');
  // The portal's title override of the definition, its description, and the banner.
  const double = page.getByRole('article', { name: 'نقاط مضاعفة في عطلة نهاية هذا الأسبوع' });
  await double.waitFor();
  await double.getByText('نقاط 2× من الجمعة إلى الأحد').waitFor();
  await page
    .getByRole('article', { name: 'هدية عيد الميلاد' })
    .getByText('استمتع بخصم 20% على قطعة واحدة بسعرها الكامل خلال شهر ميلادك.')
    .waitFor();
  await page.getByRole('article', { name: 'تعديلات مجانية' }).waitFor();
  assert.deepEqual(await englishLeft(page), [], 'no demo content left in English on Offers');
  await shoot(page, 'offers-ar-phone.png');

  // A switch of language redraws at once from the same data: English names, English title.
  await page.goto(`${BASE}/offers?lang=en`);
  await page.getByRole('article', { name: 'Double points this weekend' }).waitFor();
  await page.waitForFunction(() => document.title === 'Offers · My account');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
