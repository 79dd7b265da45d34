import { describe, expect, it } from 'vitest';

import { pageWithMarkup, startOf } from '../../../../web/build/prerender';

const INDEX_HTML = [
  '<html><head><title>Assistant IA Juridique</title>',
  '<script type="module" crossorigin src="/assets/index-1.js"></script>',
  '<link rel="stylesheet" crossorigin href="/assets/index-1.css">',
  '</head><body><div id="root"></div></body></html>',
].join('\n');

describe('a pre-rendered page', () => {
  it('starts its application when used if it holds only text and links, at once if it holds a control', () => {
    expect(startOf('<main><h1>Bienvenue</h1><a href="/login">Se connecter</a></main>')).toBe('on-use');
    expect(
      startOf('<main><a href="/login">Se connecter</a><button type="button">Obtenir</button></main>'),
    ).toBe('at-once');
    expect(startOf('<form><input name="cle"></form>')).toBe('at-once');
    expect(startOf('<div><select><option>A</option></select></div>')).toBe('at-once');
    expect(startOf('<div><textarea></textarea></div>')).toBe('at-once');
    // A word starting like a control's name is not one.
    expect(startOf('<p><buttonish>texte</buttonish></p>')).toBe('on-use');
  });

  it("carries its markup, its tab's title, its stylesheets and how its start script starts", () => {
    const page = pageWithMarkup(INDEX_HTML, {
      markup: '<h1>Paiement réussi !</h1><a href="/login">Se connecter maintenant</a>',
      title: 'Paiement réussi ! · Assistant IA Juridique',
      stylesheets: ['/assets/page-1.css'],
      sessionKey: 'session_user',
    });

    expect(page).toContain('<title>Paiement réussi ! · Assistant IA Juridique</title>');
    expect(page).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/index-1.css">\n    <link rel="stylesheet" crossorigin href="/assets/page-1.css">',
    );
    expect(page).toContain(
      '<script type="module" src="/start-after-paint.js" data-entry="/assets/index-1.js" data-start="on-use" data-session-key="session_user"></script>',
    );
    expect(page).not.toContain('src="/assets/index-1.js"');
    expect(page).toContain(
      '<div id="root"><h1>Paiement réussi !</h1><a href="/login">Se connecter maintenant</a></div>',
    );
  });

  it("keeps index.html's title when the page names none, and escapes the one it names", () => {
    expect(pageWithMarkup(INDEX_HTML, { markup: '<p>x</p>', sessionKey: 'session_user' })).toContain(
      '<title>Assistant IA Juridique</title>',
    );
    expect(
      pageWithMarkup(INDEX_HTML, { markup: '<p>x</p>', title: 'A < B & C', sessionKey: 'session_user' }),
    ).toContain('<title>A &lt; B &amp; C</title>');
  });
});
