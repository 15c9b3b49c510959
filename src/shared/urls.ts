/**
 * URL rules shared by the API and the workers. Pure: no I/O, so both sides may import it.
 */

/** Site identity: the lower-cased host name, IDN as punycode, no trailing dot (the URL parser does the rest). */
export function siteHostname(url: string): string {
  return new URL(url).hostname.replace(/\.$/, '').toLowerCase();
}
