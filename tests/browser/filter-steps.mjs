// The Query and Scan builder's filter tree, end to end: a Scan of the shop's sample data with a
// nested filter (an OR of two AND groups and a map equality, one group comparing a path with
// another path), run against the server, its items and counts checked, and the generated
// boto3 and PartiQL run too. Starts and ends on the Query & Scan tab in Query mode, no filter.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

const SK = 'tbody tr td:nth-child(4)';

export const nestedFilterStep = {
  name: 'scan-with-a-nested-filter',
  fullPage: true,
  async run({ page }) {
    await page.getByTestId('mode-Scan').click();
    await page.getByTestId('add-group').click(); // the top group's first child: ( … )
    await page.getByTestId('join-0').selectOption('AND');
    // ( status = "OPEN" AND total > 10 )
    const status = page.getByTestId('filter-0-0');
    await status.getByTestId('f-path').fill('status');
    await status.getByTestId('f-value-0').fill('OPEN');
    await page.getByTestId('add-filter-0').click();
    const total = page.getByTestId('filter-0-1');
    await total.getByTestId('f-path').fill('total');
    await total.getByTestId('f-op').selectOption('>');
    await total.getByTestId('f-kind-0').selectOption('N');
    await total.getByTestId('f-value-0').fill('10');
    // OR line = {"street": "Rua Augusta", "no": 12} (a map, in plain JSON)
    await page.getByTestId('add-filter').click();
    await page.getByTestId('join').selectOption('OR'); // shown from the second child on
    const line = page.getByTestId('filter-1');
    await line.getByTestId('f-path').fill('line');
    await line.getByTestId('f-kind-0').selectOption('M');
    await line.getByTestId('f-value-0').fill('{"street": "Rua Augusta", "no": 12}');
    // OR ( GSI2SK = PK AND NOT contains(email, "grace") ): a profile's own key, not Grace's.
    await page.getByTestId('add-group').click();
    await page.getByTestId('join-2').selectOption('AND');
    const own = page.getByTestId('filter-2-0');
    await own.getByTestId('f-path').fill('GSI2SK');
    await own.getByTestId('f-kind-0').selectOption('path');
    await own.getByTestId('f-value-0').fill('PK');
    await page.getByTestId('add-filter-2').click();
    const email = page.getByTestId('filter-2-1');
    await email.getByTestId('f-not').check();
    await email.getByTestId('f-path').fill('email');
    await email.getByTestId('f-op').selectOption('contains');
    await email.getByTestId('f-value-0').fill('grace');
    // A bad operand is marked where it is typed, and the request waits for it.
    await total.getByTestId('f-value-0').fill('ten');
    assert.match(await total.getByTestId('f-value-0').getAttribute('class'), /\bbad\b/);
    assert.match(await page.getByRole('alert').first().innerText(), /filter on total: "ten" is not a number/);
    assert.equal(await page.getByTestId('run').isDisabled(), true);
    await total.getByTestId('f-value-0').fill('10');

    assert.equal(
      await page.getByTestId('filter-readable').locator('.mono').innerText(),
      '(status = "OPEN" AND total > 10) OR line = {"street":"Rua Augusta","no":12} OR (GSI2SK = PK AND NOT (contains(email, "grace")))',
    );
    const code = page.getByTestId('code-text');
    const boto3 = await code.innerText();
    for (const s of [
      'client.scan(',
      'FilterExpression="(#status = :status AND #total > :total) OR line = :line OR (GSI2SK = PK AND NOT (contains(email, :email)))"',
      '"#status": "status"',
      '":line": {\n            "M": {',
    ])
      assert.ok(boto3.includes(s), `boto3 lacks ${s}:\n${boto3}`);
    await page.getByTestId('run').click();
    // Two open orders over 10, the address, Ada's profile: 4 of the 8 items read.
    // (The previous step's count-only Scan also counted 4: wait for this request's answer, rows shown.)
    await page.waitForFunction(() => document.querySelector('[data-testid=stat-count] b')?.textContent === '4' &&
      !document.querySelector('[data-testid=stale]') && document.querySelectorAll('[data-testid=items] tbody tr').length === 4);
    assert.equal(await page.getByTestId('stat-scanned').locator('b').innerText(), '8');
    const expected = ['ADDRESS#home', 'ORDER#2024-01-15#001', 'ORDER#2024-01-20#004', 'PROFILE'];
    const sks = (await page.getByTestId('items').locator(SK).allInnerTexts()).map((s) => s.trim()).sort();
    assert.deepEqual(sks, expected);
    assert.match(await page.getByTestId('items').innerText(), /Ada/);
    assert.doesNotMatch(await page.getByTestId('items').innerText(), /Grace/);

    // The boto3 code runs as written and reads the same; so does the PartiQL statement.
    const env = { ...process.env, AWS_ACCESS_KEY_ID: 'console', AWS_SECRET_ACCESS_KEY: 'test', AWS_DEFAULT_REGION: 'us-east-1' };
    const python = execFileSync('/usr/bin/python3', ['-c', boto3], { env, encoding: 'utf8', timeout: 30000 });
    assert.match(python.split('\n')[0], /^4 8 \{/);
    await page.getByTestId('lang-partiql').click();
    const partiql = await code.innerText();
    assert.ok(partiql.includes(`WHERE ("status" = 'OPEN' AND "total" > 10) OR "line" = {'street': 'Rua Augusta', 'no': 12} OR ("GSI2SK" = "PK" AND NOT (contains("email", 'grace')))`), partiql);
    const statement = partiql.split('\n').filter((l) => !l.startsWith('--')).join('\n');
    const out = await page.evaluate(async (Statement) => {
      const r = await fetch('/', { method: 'POST', headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.ExecuteStatement' }, body: JSON.stringify({ Statement }) });
      return r.json();
    }, statement);
    assert.deepEqual(out.Items?.map((i) => i.SK.S).sort(), expected, JSON.stringify(out));
    await page.getByTestId('lang-boto3').click();
    await page.screenshot({ path: new URL('./artifacts/10a-nested-filter.png', import.meta.url).pathname, fullPage: true });

    // Negating the whole top group keeps the other four.
    await page.getByTestId('group-not').check();
    assert.match(await code.innerText(), /FilterExpression="NOT \(\(#status = :status AND #total > :total\) OR line = :line OR \(GSI2SK = PK AND NOT \(contains\(email, :email\)\)\)\)"/);
    await page.getByTestId('run').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=stat-count] b')?.textContent === '4' && !document.querySelector('[data-testid=stale]'));
    const rest = (await page.getByTestId('items').locator(SK).allInnerTexts()).map((s) => s.trim()).sort();
    assert.deepEqual(rest, ['ORDER#2024-02-03#002', 'ORDER#2024-03-09#003', 'ORDER#2024-04-01#005', 'PROFILE']);

    // Clean up for the steps after: no filter, Query mode.
    await page.getByTestId('remove-group-2').click();
    await page.getByTestId('remove-group-0').click();
    await page.getByTestId('filter-0').getByTestId('f-remove').click();
    await page.getByTestId('filter-readable').waitFor({ state: 'detached' });
    await page.getByTestId('mode-Query').click();
  },
};
