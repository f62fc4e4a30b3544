// `npm run check:content` on a copy of the shop's content with one mistake at a time: each is found, with the
// file, the line, the field and the fix, without building the site.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkContent } from '../../../content/check'
import { formatProblems, REPO_ROOT } from '../../../content/read'
import { priceText, weightText } from '../../../content/schema'

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

let root = ''
/** A fresh copy of content/ and site/: what the check reads. */
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'content-check-'))
  roots.push(root)
  for (const folder of ['content', 'site']) {
    cpSync(join(REPO_ROOT, folder), join(root, folder), { recursive: true })
  }
})

const path = (file: string) => join(root, file)
const read = (file: string) => readFileSync(path(file), 'utf8')
const write = (file: string, text: string) => writeFileSync(path(file), text)
const edit = (file: string, from: string | RegExp, to: string) => {
  const before = read(file)
  const after = before.replace(from, to)
  if (after === before) throw new Error(`${file} has no ${from}`)
  write(file, after)
}
const lineOf = (file: string, text: string) =>
  read(file)
    .split('\n')
    .findIndex((line) => line.includes(text)) + 1
const problems = () => formatProblems(checkContent(root).problems)

/** git in the copy, as an editor's working copy has it. */
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.com', ...args], {
    cwd: root,
    stdio: 'ignore',
  })

/** The copy made a git repository with everything in it committed; `renames: false` as a repository may be set. */
function committedCopy(options: { renames?: boolean } = {}) {
  git('init', '-q')
  if (options.renames === false) git('config', 'diff.renames', 'false')
  git('add', 'content', 'site')
  git('commit', '-q', '-m', 'content as it is')
}

describe('npm run check:content', () => {
  test("the shop's own content passes, in well under the seconds a build takes", () => {
    const started = performance.now()
    const report = checkContent(REPO_ROOT)
    expect(formatProblems(report.problems)).toBe('')
    expect(report.checked).toBeGreaterThanOrEqual(17)
    expect(performance.now() - started).toBeLessThan(3000)
  })

  test('a price with fractions of a cent: file, line, field and fix', () => {
    edit('content/products/repair.mdx', /^price: .*$/m, 'price: 13.005')
    expect(problems()).toBe(
      `content/products/repair.mdx, line ${lineOf('content/products/repair.mdx', 'price:')}: price: write it in dollars and cents, like 19.00 (got 13.005)`,
    )
  })

  test('two scents of one product with the same name, in any capitals or spacing', () => {
    edit('content/products/whisker-oil.mdx', '  - name: Unscented', '  - name: cedar shop')
    expect(problems()).toBe(
      `content/products/whisker-oil.mdx, line ${lineOf('content/products/whisker-oil.mdx', 'scents:')}: scents, item 3, name: another scent of this product is named cedar shop already: give each its own name`,
    )
    edit('content/products/whisker-oil.mdx', '  - name: cedar shop', '  - name: "Cedar\u00a0 Shop"')
    expect(problems()).toContain('scents, item 3, name: another scent of this product is named')
  })

  test('a colon in unquoted text is explained', () => {
    edit('content/teasers/x-treme.mdx', /^heading: .*$/m, 'heading: X-TREME: Coming Soon')
    expect(problems()).toBe(
      `content/teasers/x-treme.mdx, line ${lineOf('content/teasers/x-treme.mdx', 'heading:')}: this text holds a colon followed by a space, which YAML reads as a new field: put the whole text in double quotes`,
    )
  })

  test('a product whose fields cannot be read is the one problem: a card naming it is not reported too', () => {
    const file = 'content/products/whisker-tamer.mdx'
    edit(file, /^name: .*$/m, 'name: Barrel & Timber: Limited')
    expect(problems()).toBe(
      `${file}, line ${lineOf(file, 'name:')}: this text holds a colon followed by a space, which YAML reads as a new field: put the whole text in double quotes`,
    )
  })

  test('a misspelt field is named with the one meant', () => {
    edit('content/teasers/gift-bundles.mdx', /^eyebrow:/m, 'eyebrw:')
    expect(problems()).toContain(
      'content/teasers/gift-bundles.mdx, line 4: eyebrw: is not a field this file can have (did you mean eyebrow?)',
    )
  })

  test('a picture needs its description, and must be there', () => {
    edit('content/teasers/x-treme.mdx', /^imageAlt: .*\n/m, '')
    expect(problems()).toContain('content/teasers/x-treme.mdx: imageAlt: is missing: describe the picture')
    edit('content/teasers/x-treme.mdx', /^image: .*$/m, 'image: ../../site/assets/teasers/x-tream.svg')
    expect(problems()).toContain(
      'image: "../../site/assets/teasers/x-tream.svg" was not found: the path starts from this file\'s folder',
    )
    edit('content/teasers/x-treme.mdx', /^image: .*$/m, 'image: ../../site/assets/teasers/x-treme.pdf')
    expect(problems()).toContain(
      'is not a picture the site can show: use a file ending in .svg, .png, .jpg, .jpeg, .webp, .avif',
    )
  })

  test('a policy date in another format', () => {
    edit('content/policies/returns-policy.mdx', /^updated: .*$/m, 'updated: June 15, 2025')
    expect(problems()).toBe(
      'content/policies/returns-policy.mdx, line 4: updated: write the date as 2025-06-15 (got "June 15, 2025")',
    )
  })

  test('a policy date that is no day of the calendar, or after today', () => {
    const file = 'content/policies/returns-policy.mdx'
    const line = lineOf(file, 'updated:')
    edit(file, /^updated: .*$/m, 'updated: "2026-02-30"')
    expect(problems()).toBe(
      `${file}, line ${line}: updated: 2026-02-30 is not a day of the calendar: write the day the policy last changed, like 2025-06-15`,
    )
    edit(file, /^updated: .*$/m, 'updated: 2026-13-45')
    expect(problems()).toContain('updated: 2026-13-45 is not a day of the calendar')
    edit(file, /^updated: .*$/m, 'updated: 2099-01-01')
    expect(problems()).toBe(
      `${file}, line ${line}: updated: 2099-01-01 is after today: write the day the policy last changed`,
    )
  })

  test('what the preview shows but the built site blocks, and links a browser cannot follow', () => {
    const file = 'content/pages/about.mdx'
    const added = [
      '![A welder at work](https://images.example.com/welder.jpg)',
      '<iframe src="https://www.youtube.com/embed/abc" title="Video"></iframe>',
      '<div onClick="alert(1)">hi</div>',
      '[click](javascript:alert(1))',
      '[our partner](www.example.com) and [shipping](shipping-policy)',
      '[old](http://localhost:4321/returns-policy)',
      '[mail](mailto:crew@gritandwhisker.com), [call](tel:+15555550100), [top](#top), [site](https://example.com)',
    ]
    write(file, `${read(file)}\n${added.join('\n\n')}\n`)
    const line = (text: string) => lineOf(file, text)
    expect(problems()).toBe(
      [
        `${file}, line ${line('![A welder')}: picture "https://images.example.com/welder.jpg" is on another site, which the shop's pages do not show: save it in site/assets/ and point to it from this file's folder`,
        `${file}, line ${line('<iframe')}: <iframe> does not work on the shop's pages (their security policy blocks it): write the text in Markdown, or ask a developer to add a component for it`,
        `${file}, line ${line('<div')}: onClick= runs code, which the shop's pages do not allow: take it out`,
        `${file}, line ${line('[click]')}: the link to javascript:alert(1) is not an address a browser can follow from every page: start it with / for a page of the shop (/shipping-policy), https:// for another site, or mailto: for an e-mail address`,
        `${file}, line ${line('[our partner]')}: the link to www.example.com is not an address a browser can follow from every page: start it with / for a page of the shop (/shipping-policy), https:// for another site, or mailto: for an e-mail address`,
        `${file}, line ${line('[our partner]')}: the link to shipping-policy is not an address a browser can follow from every page: start it with / for a page of the shop (/shipping-policy), https:// for another site, or mailto: for an e-mail address`,
        `${file}, line ${line('[old]')}: the link to http://localhost:4321/returns-policy goes to a preview on this computer: write the page's address from its /, like /returns-policy`,
      ].join('\n'),
    )
  })

  test('MDX the build could not read: the line, and what to do', () => {
    const file = 'content/pages/about.mdx'
    edit(
      file,
      '<Section title="Our Mission" tone="surface">',
      '<Section title="Our Mission" tone="surface">\n\nWrite to <crew@gritandwhisker.example> any time.',
    )
    const line = lineOf(file, 'Write to')
    expect(problems()).toContain(`${file}, line ${line}: the text could not be read:`)
    expect(problems()).toContain('write &lt; or \\{ for the character itself')
  })

  test('a { } that names something the file does not have: the build would stop on it with a stack trace', () => {
    const file = 'content/products/repair.mdx'
    write(file, `${read(file)}\nPrices from {price}, and 5 < 6.\n`)
    expect(problems()).toBe(
      `${file}, line ${lineOf(file, 'Prices from')}: {price} names "price", which this file does not have: in MDX, { starts a code expression. Write \\{ for the brace itself, or put the words in plain text`,
    )
    // Comments, text and numbers name nothing; the shop's own pages pass lists of text to components.
    write(file, `${read(file).replace('{price}', '{/* a note */} {"$16.50"} {3}')}`)
    expect(problems()).toBe('')
    edit('content/pages/ingredients.mdx', "keyIngredients={['", "keyIngredients={[oils, '")
    expect(problems()).toContain('names "oils", which this file does not have')
  })

  test('a component where it does not work', () => {
    const file = 'content/teasers/heal-her.mdx'
    write(file, `${read(file)}\n<Section title="More">\n\nSoon.\n\n</Section>\n`)
    expect(problems()).toContain(
      `${file}, line ${lineOf(file, '<Section')}: <Section> is not a component this file can use: write plain Markdown here (components work in content/pages files)`,
    )
    write(
      'content/pages/about.mdx',
      `${read('content/pages/about.mdx')}\n<Sectoin title="x">\n\nx\n\n</Sectoin>\n`,
    )
    expect(problems()).toContain(
      '<Sectoin> is not a component this file can use: use one of ButtonLink, CardGrid',
    )
  })

  test('a picture in the text without a description', () => {
    const file = 'content/policies/privacy-policy.mdx'
    write(file, `${read(file)}\n![](../../site/assets/logo.svg)\n`)
    expect(problems()).toContain('picture "../../site/assets/logo.svg" has no description')
  })

  test('links to pages that do not exist, or are drafts', () => {
    const file = 'content/policies/shipping-policy.mdx'
    write(file, `${read(file)}\nSee [our oils](/prodcuts/whisker-oil) and [the crate](/supply-drop).\n`)
    expect(problems()).toContain(
      `${file}, line ${lineOf(file, 'our oils')}: the link to /prodcuts/whisker-oil goes to no page of the shop`,
    )
    expect(problems()).not.toContain('/supply-drop')
    edit('content/teasers/supply-drop.mdx', /^title:/m, 'draft: true\ntitle:')
    expect(problems()).toContain(
      'the link to /supply-drop goes to a draft, which is not on the built site: publish content/teasers/supply-drop.mdx first, or remove the link',
    )
  })

  test('an IngredientCard that names a draft product', () => {
    edit('content/products/repair.mdx', /^name:/m, 'draft: true\nname:')
    expect(problems()).toContain(
      '<IngredientCard slug="repair"> shows a draft product, which is not on the built site: publish it first',
    )
  })

  test('a page file named like a sentence, or at an address the shop uses', () => {
    renameSync(path('content/teasers/gift-bundles.mdx'), path('content/teasers/Summer Sale.mdx'))
    renameSync(path('content/policies/returns-policy.mdx'), path('content/policies/cart.mdx'))
    const found = problems()
    expect(found).toContain(
      "content/teasers/Summer Sale.mdx: the file name is the page's address, so it may only hold lower-case letters, digits and dashes: rename it to summer-sale.mdx",
    )
    expect(found).toContain(
      'content/policies/cart.mdx: the shop already has a page at /cart: rename the file',
    )
  })

  test('a product copied to start another: the copy is named, the original keeps its number', async () => {
    await Bun.sleep(20)
    cpSync(path('content/products/whisker-tamer.mdx'), path('content/products/beard-butter.mdx'))
    expect(problems()).toBe(
      [
        'content/products/beard-butter.mdx: id: content/products/whisker-tamer.mdx already has id 2: give this product a number no other product has, like 6',
        'content/products/beard-butter.mdx: slug: content/products/whisker-tamer.mdx already has slug whisker-tamer: give this product a slug of its own',
      ].join('\n'),
    )
  })

  test('in a clone, where files have no telling age, the copy is the file git does not know yet', () => {
    committedCopy()
    cpSync(path('content/products/whisker-tamer.mdx'), path('content/products/beard-butter.mdx'))
    // The original changed last, as a pull or a checkout may leave it.
    const later = new Date(Date.now() + 60_000)
    utimesSync(path('content/products/whisker-tamer.mdx'), later, later)
    expect(problems()).toContain(
      'content/products/beard-butter.mdx: id: content/products/whisker-tamer.mdx already has id 2: give this product a number no other product has, like 6',
    )
  })

  test("a removed product's id is not given to a new one; the removed product published again is fine", () => {
    committedCopy()
    const removed = read('content/products/accessories.mdx')
    rmSync(path('content/products/accessories.mdx'))
    git('commit', '-q', '-am', 'accessories taken off')
    // A new product started from another, given the removed one's id 5 as the next number after 4.
    write(
      'content/products/mustache-wax.mdx',
      read('content/products/whisker-wash.mdx')
        .replace(/^id: .*$/m, 'id: 5')
        .replace(/^slug: .*$/m, 'slug: mustache-wax'),
    )
    expect(problems()).toContain(
      'content/products/mustache-wax.mdx: id: 5 was the id of content/products/accessories.mdx (accessories), which was removed: the shop keeps its weight, stock and orders under that number, so give this product one never used, like 6',
    )
    rmSync(path('content/products/mustache-wax.mdx'))
    write('content/products/accessories.mdx', removed)
    expect(problems()).toBe('')
  })

  test('a shallow clone, whose history may leave a removed product out, says the ids were not checked', () => {
    expect(checkContent(root).notes).toEqual([
      'ids of removed products were not checked: this copy is not a git working copy, whose history names them',
    ])
    committedCopy()
    rmSync(path('content/products/accessories.mdx'))
    git('commit', '-q', '-am', 'accessories taken off')
    git('commit', '-q', '--allow-empty', '-m', 'later work')
    expect(checkContent(root).notes).toEqual([])
    const shallow = mkdtempSync(join(tmpdir(), 'content-check-shallow-'))
    roots.push(shallow)
    git('clone', '-q', '--depth', '1', `file://${root}`, shallow)
    expect(checkContent(shallow).notes).toEqual([
      "ids of removed products were not checked against the history this shallow clone left out: run 'git fetch --unshallow' and check again",
    ])
  })

  test('a copy inside another repository that does not track it says the ids were not checked', () => {
    // A release unpacked under a home folder kept in git: that history is not the shop's.
    git('init', '-q')
    expect(checkContent(root).notes).toEqual([
      'ids of removed products were not checked: this copy is not a git working copy, whose history names them',
    ])
  })

  test('a page at an address the shop keeps from search engines', () => {
    cpSync(path('content/pages/about.mdx'), path('content/pages/newsletter.mdx'))
    expect(problems()).toBe(
      "content/pages/newsletter.mdx: /newsletter is kept from search engines and the sitemap (the shop's pages there only say what just happened): rename the file",
    )
  })

  test('a product renamed with its text rewritten (to git: removed and added at once) keeps its id', () => {
    // What git counts as removed and added rather than renamed: a rewrite past its similarity threshold, or
    // a repository that does not look for renames at all (as here, so the rewrite need not be measured).
    committedCopy({ renames: false })
    const rewritten = read('content/products/whisker-wash.mdx')
      .replace(/^slug: .*$/m, 'slug: beard-wash')
      .replace(/\n---\n[\s\S]*$/, `\n---\n\n${'New words for the relaunched beard wash. '.repeat(60)}\n`)
    rmSync(path('content/products/whisker-wash.mdx'))
    write('content/products/beard-wash.mdx', rewritten)
    edit('site/features/header/nav.ts', '/products/whisker-wash', '/products/beard-wash')
    edit('content/pages/ingredients.mdx', 'slug="whisker-wash"', 'slug="beard-wash"')
    git('add', '-A')
    git('commit', '-q', '-m', 'whisker wash is now beard wash')
    expect(problems()).toBe('')
  })

  test('two pages at one address', () => {
    cpSync(path('content/teasers/x-treme.mdx'), path('content/pages/x-treme.mdx'))
    edit('content/pages/x-treme.mdx', /^(eyebrow|heading): .*\n/gm, '')
    expect(problems()).toContain('is already the page at /x-treme: rename one of them')
  })

  test('the JSON lists: entry, line and field', () => {
    const file = 'content/quotes.json'
    edit(file, '"rating": 5', '"rating": 9')
    expect(problems()).toContain(
      `${file}, line ${lineOf(file, '"1-marcus-welder"')}: quote 1 (1-marcus-welder): rating: must be a number of stars from 1 to 5`,
    )
    write('content/research.json', '[{"id": "a", "claim": "x" "source": "y"}]')
    expect(problems()).toContain('content/research.json: the JSON could not be read')
  })

  test('a draft is checked like any other file', () => {
    write(
      'content/teasers/winter-line.mdx',
      read('content/teasers/x-treme.mdx').replace(/^title:/m, 'draft: yes\ntitle:'),
    )
    expect(problems()).toBe('')
    edit('content/teasers/winter-line.mdx', /^heading: .*\n/m, '')
    expect(problems()).toContain('content/teasers/winter-line.mdx: heading: is missing')
  })

  test('a page the shop’s menus link to may not become a draft: the menu would link nowhere', () => {
    edit('content/teasers/x-treme.mdx', /^title:/m, 'draft: true\ntitle:')
    expect(problems()).toBe(
      "content/teasers/x-treme.mdx: draft: /x-treme is linked from the shop's menus or pages (site/features/header/nav.ts), where a draft would be a broken link: keep it published, or ask a developer to take the link out first",
    )
  })

  test('a page or product the shop’s menus link to may not be removed either: named at the menu that links it', () => {
    rmSync(path('content/products/accessories.mdx'))
    rmSync(path('content/pages/about.mdx'))
    expect(problems()).toBe(
      [
        'site/features/footer/SiteFooter.astro: links to /about, which no content file makes (removed or renamed?): put its file back, or ask a developer to take the link out first',
        'site/features/header/nav.ts: links to /products/accessories, which no content file makes (removed or renamed?): put its file back, or ask a developer to take the link out first',
      ].join('\n'),
    )
  })
})

describe('forgiving where there is one reading', () => {
  test.each([
    [19, '19.00'],
    ['19', '19.00'],
    [19.5, '19.50'],
    [' $19.5 ', '19.50'],
    ['19.00', '19.00'],
  ])('price %p is %p', (written, read) => {
    expect(priceText(written)).toBe(read)
  })

  test.each([['19,00'], ['19.999'], ['nineteen'], [-1]])(
    'price %p is left for the check to refuse',
    (written) => {
      expect(priceText(written)).toBe(written)
    },
  )

  test.each([
    [2, '2.0'],
    ['2', '2.0'],
    [2.5, '2.5'],
    ['2.50', '2.5'],
  ])('weight %p is %p', (written, read) => {
    expect(weightText(written)).toBe(read)
  })

  test.each([['2.25'], ['two']])('weight %p is refused', (written) => {
    expect(weightText(written)).toBe(written)
  })
})
