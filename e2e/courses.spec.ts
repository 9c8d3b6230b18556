import { expect, test, type Page } from './test.ts';
import { recordViolations } from './csp-violations.ts';
import { buyOnSandbox, findProduct } from './shop.ts';
import { signUp } from './accounts.ts';
import { a11yViolations } from './axe.ts';

const COURSE = 'Momentum Trading Masterclass';

const currentTime = (page: Page) =>
  page.getByTestId('lesson-video').evaluate((v: HTMLVideoElement) => v.currentTime);

test('buy a course, watch a lesson, come back to where you left off, download its file', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // The player, its captions and the progress bars work under the page's CSP: nothing is refused.
  const refused = await recordViolations(page);
  await signUp(page, 'learner', 'course-learner-77');

  // No courses yet: the empty page points to the course category.
  await page.goto('/courses');
  await expect(page.getByRole('heading', { level: 1, name: 'My courses' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse courses' })).toHaveAttribute(
    'href',
    '/search?category=courses',
  );

  // Buy the course with the sandbox's hosted checkout.
  const product = await findProduct(page.request, COURSE);
  await page.goto(`/p/${product.id}/${product.slug}`);
  await buyOnSandbox(page);

  // The receipt links to the course once the enrolment is in place.
  await page.getByRole('link', { name: 'View your order' }).click();
  await expect(page).toHaveURL(/\/orders\/[^/]+$/);
  const open = page.getByTestId('course-open-link');
  await expect(async () => {
    await page.reload();
    await expect(open).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(open).toHaveText('Open the course');
  await open.click();
  await expect(page).toHaveURL(`/courses/${product.id}`);
  await expect(page.getByRole('heading', { level: 1, name: COURSE })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Course progress' })).toHaveAttribute(
    'aria-valuenow',
    '0',
  );
  // The drip lesson says when it opens.
  await expect(page.getByRole('link', { name: /Live trade review.*Opens on / })).toBeVisible();

  // Play the first lesson (muted, as browsers allow), pause it after a second and a half.
  const video = page.getByTestId('lesson-video');
  await expect(video.locator('track[kind="captions"]')).toHaveAttribute('srclang', 'en');
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    void v.play();
  });
  await expect.poll(() => currentTime(page), { timeout: 20_000 }).toBeGreaterThan(1.5);
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith('/progress'),
  );
  await video.evaluate((v: HTMLVideoElement) => v.pause());
  const body = (await saved).request().postDataJSON() as { positionSeconds: number };
  expect(body.positionSeconds).toBeGreaterThanOrEqual(1);
  expect(await a11yViolations(page)).toEqual([]);

  // Leave, come back through "My courses": the lesson resumes where it was left.
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Courses' }).click();
  await expect(page).toHaveURL('/courses');
  const card = page.getByTestId('course-card').filter({ hasText: COURSE });
  await card.getByTestId('course-resume-link').click();
  await expect(page).toHaveURL(/\/courses\/[^/]+\/lessons\/[^/]+$/);
  await expect
    .poll(() => currentTime(page), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(Math.max(body.positionSeconds - 2, 1));

  // The next lesson's worksheet downloads under its name.
  await page.getByRole('link', { name: /Reading momentum on the chart/ }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: 'Reading momentum on the chart' }),
  ).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByTestId('attachment-download').first().click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);

  // Completing it moves the course's progress.
  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByText('✓ Completed')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Course progress' })).not.toHaveAttribute(
    'aria-valuenow',
    '0',
  );
  expect(refused).toEqual([]);
});
