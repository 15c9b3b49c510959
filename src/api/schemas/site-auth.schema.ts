import { z } from '@hono/zod-openapi';
import { COOKIE_NAME, COOKIE_VALUE, FORBIDDEN_HEADERS, HEADER_NAME, HEADER_VALUE } from '../../shared/site-auth.ts';

const MAX_VALUE = 4096;
const selector = z.string().min(1).max(500).openapi({ description: 'A CSS selector (Playwright syntax).' });
const label = z.string().min(1).max(200).openapi({ description: "The field's accessible label text." });
const pattern = z
  .string()
  .min(1)
  .max(500)
  .openapi({ description: 'A URL pattern: `*` matches anything. Starting with `/`, it is matched against the path and query (`/login*`), else against the whole URL.' });
export const absoluteUrl = z
  .string()
  .max(2000)
  .refine((u) => {
    try {
      return ['http:', 'https:'].includes(new URL(u).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

const GotoStep = z.object({ action: z.literal('goto'), url: absoluteUrl }).strict();
const FillStep = z
  .object({
    action: z.literal('fill'),
    selector: selector.optional(),
    label: label.optional(),
    value: z.string().max(MAX_VALUE).openapi({ description: 'Typed into the field. Write-only: never shown again.', writeOnly: true }),
  })
  .strict()
  .refine((s) => (s.selector === undefined) !== (s.label === undefined), { message: 'give exactly one of selector and label', path: ['selector'] });
const ClickStep = z
  .object({ action: z.literal('click'), selector: selector.optional(), label: label.optional(), text: z.string().min(1).max(200).optional().openapi({ description: 'The button or link text.' }) })
  .strict()
  .refine((s) => [s.selector, s.label, s.text].filter((x) => x !== undefined).length === 1, { message: 'give exactly one of selector, label and text', path: ['selector'] });
const WaitStep = z
  .object({ action: z.literal('waitFor'), url: pattern.optional(), selector: selector.optional() })
  .strict()
  .refine((s) => s.url !== undefined || s.selector !== undefined, { message: 'give url (a pattern) or selector', path: ['url'] });

const SelectStep = z
  .object({
    action: z.literal('select'),
    selector: selector.optional(),
    label: label.optional(),
    value: z.string().max(MAX_VALUE).openapi({ description: "The option to pick, by its value or its text. Write-only: never shown again.", writeOnly: true }),
  })
  .strict()
  .refine((s) => (s.selector === undefined) !== (s.label === undefined), { message: 'give exactly one of selector and label', path: ['selector'] });
/** Playwright key names, optionally with modifiers: `Enter`, `Tab`, `Shift+Tab`, `ArrowDown`, `a`. */
const KEY = /^(?:(?:Shift|Control|Alt|Meta|ControlOrMeta)\+)*(?:[A-Za-z][A-Za-z0-9]{0,20}|[!-~])$/;
const PressStep = z
  .object({
    action: z.literal('press'),
    key: z.string().max(80).regex(KEY, 'a key name such as Enter, Tab, Escape, ArrowDown, Shift+Tab or a single character').openapi({ description: 'The key, as Playwright names it (`Enter`, `Escape`, `Shift+Tab`).' }),
    selector: selector.optional(),
    label: label.optional(),
  })
  .strict()
  .refine((s) => s.selector === undefined || s.label === undefined, { message: 'give at most one of selector and label (neither: the focused element)', path: ['selector'] });

/** One scripted step, for the login and for a site's flows alike. */
export const LoginStepSchema = z
  .discriminatedUnion('action', [GotoStep, FillStep, ClickStep, WaitStep, SelectStep, PressStep])
  .openapi('LoginStep', {
    description:
      'One scripted step: `goto` a URL of the site, `fill` a field, `click`, `select` an option, `press` a key (in an element, or the focused one), or `waitFor` a URL pattern or an element. ' +
      'Values typed or picked are write-only.',
  });

/** A step as the API shows it: its shape, never a value it types or picks. */
export const StepSummarySchema = z
  .object({
    action: z.enum(['goto', 'fill', 'click', 'waitFor', 'select', 'press']),
    selector: z.string().optional(),
    label: z.string().optional(),
    text: z.string().optional(),
    url: z.string().optional(),
    key: z.string().optional(),
    hasValue: z.literal(true).optional().openapi({ description: 'A `fill` or `select` step has a value; it is never shown.' }),
  })
  .openapi('StepSummary');

const LoggedIn = z
  .object({ selector: selector.optional(), urlPattern: pattern.optional() })
  .strict()
  .refine((s) => s.selector !== undefined || s.urlPattern !== undefined, { message: 'give selector or urlPattern', path: ['selector'] })
  .openapi({ description: 'How a loaded page shows the scanner is still logged in: an element that is present, and/or a URL pattern the page matches.' });

export const PutSiteAuthBody = z
  .object({
    headers: z
      .record(
        z
          .string()
          .max(100)
          .regex(HEADER_NAME, 'header names are RFC 7230 tokens')
          .refine((n) => !FORBIDDEN_HEADERS.has(n.toLowerCase()), 'this header is set by the browser or the connection (use `cookies` for cookies)'),
        z.string().max(MAX_VALUE).regex(HEADER_VALUE, 'header values are visible ASCII, without line breaks'),
      )
      .refine((h) => Object.keys(h).length <= 20, 'at most 20 headers')
      .refine((h) => new Set(Object.keys(h).map((k) => k.toLowerCase())).size === Object.keys(h).length, 'a header name is given twice')
      .optional()
      .openapi({ description: 'Extra request headers sent only to the site\'s own origin. Write-only: GET shows their names.', example: { 'X-Preview-Token': 's3cr3t' } }),
    cookies: z
      .array(
        z
          .object({
            name: z.string().min(1).max(200).regex(COOKIE_NAME, 'cookie names are RFC 6265 tokens'),
            value: z.string().max(MAX_VALUE).regex(COOKIE_VALUE, 'cookie values may not hold spaces, quotes, commas, semicolons or backslashes').openapi({ writeOnly: true }),
            path: z.string().max(500).startsWith('/', 'a cookie path starts with /').optional(),
          })
          .strict(),
      )
      .max(50)
      .optional()
      .openapi({ description: "Cookies set for the site's host only. Write-only: GET shows their names." }),
    basic: z
      .object({ username: z.string().min(1).max(200).refine((u) => !u.includes(':'), 'a basic-auth user name cannot hold a colon'), password: z.string().max(MAX_VALUE).openapi({ writeOnly: true }) })
      .strict()
      .optional()
      .openapi({ description: "HTTP basic credentials, answered only to the site's own origin. The password is write-only." }),
    login: z
      .object({
        url: absoluteUrl.openapi({ description: 'Where the login starts: the login form. Must be on the site.' }),
        steps: z.array(LoginStepSchema).min(1).max(20),
        loggedIn: LoggedIn,
        loginUrlPattern: pattern.optional().openapi({ description: 'A page that lands on a URL matching this is the login form: the page needs a login.' }),
        stepTimeoutMs: z.number().int().min(500).max(60_000).optional().openapi({ description: 'How long a step may wait for its element or URL (default 10000).' }),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((b) => b.headers !== undefined || b.cookies !== undefined || b.basic !== undefined || b.login !== undefined, {
    message: 'give at least one of headers, cookies, basic and login',
    path: ['headers'],
  })
  .openapi('PutSiteAuthRequest');

export type PutSiteAuthBody = z.infer<typeof PutSiteAuthBody>;

export const SiteAuthSchema = z
  .object({
    siteId: z.uuid(),
    headers: z.array(z.string()).openapi({ description: 'Names of the extra headers; their values are never shown.' }),
    cookies: z.array(z.object({ name: z.string(), path: z.string() })),
    basic: z.object({ username: z.string(), hasPassword: z.literal(true) }).nullable(),
    login: z
      .object({
        url: z.string(),
        steps: z.array(StepSummarySchema),
        loggedIn: z.object({ selector: z.string().optional(), urlPattern: z.string().optional() }),
        loginUrlPattern: z.string().nullable(),
        stepTimeoutMs: z.number().int(),
      })
      .nullable(),
    keyId: z.string().openapi({ description: 'Which SECRETS_KEY sealed the set-up (a hash of it, never the key).' }),
    updatedAt: z.string(),
  })
  .openapi('SiteAuth');
