/**
 * What a page URL without the run's token gets instead of the app: a link from an earlier run (the
 * token changes every run), one cut short when copied, or the bare address. Without it the app
 * would load and then fail to connect, showing "reconnecting" forever.
 */
export function invalidLinkPage(hadToken: boolean): string {
  const what = hadToken
    ? 'This link is not valid for the Nodescope running here: it comes from an earlier run, or it was cut short when copied.'
    : 'This address needs the access token that Nodescope printed with it.';
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Nodescope: link not valid</title>
<h1>This Nodescope link is not valid</h1>
<p>${what}</p>
<p>Open the exact URL that <code>nodescope ui</code> printed in its terminal (it carries a new token every run),
or start <code>nodescope ui</code> again to get a fresh one.</p>
</html>
`;
}
