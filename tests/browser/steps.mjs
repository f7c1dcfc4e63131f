// The console's end-to-end steps, in the order a user takes them; each depends on the ones
// before. ctx: { page, url, state }.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nestedFilterStep } from './filter-steps.mjs';
import { startServer } from './server.mjs';

// Sample single-table data (an online shop): users with their orders and an address in one
// collection; GSI1 collects orders by status, sorted by date; GSI2 finds a user by email and
// holds profiles only (sparse). Mixed DynamoDB JSON and plain JSON lines, as the import takes both.
export const SAMPLE = [
  { Item: { PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' }, name: { S: 'Ada' }, email: { S: 'ada@example.com' }, GSI2PK: { S: 'EMAIL#ada@example.com' }, GSI2SK: { S: 'USER#u1' } } },
  { PK: 'USER#u1', SK: 'ORDER#2024-01-15#001', total: 42, status: 'OPEN', GSI1PK: 'STATUS#OPEN', GSI1SK: '2024-01-15' },
  { PK: 'USER#u1', SK: 'ORDER#2024-02-03#002', total: 17.5, status: 'SHIPPED', GSI1PK: 'STATUS#SHIPPED', GSI1SK: '2024-02-03' },
  { PK: 'USER#u1', SK: 'ORDER#2024-03-09#003', total: 8, status: 'OPEN', GSI1PK: 'STATUS#OPEN', GSI1SK: '2024-03-09' },
  { PK: 'USER#u1', SK: 'ADDRESS#home', city: 'Lisbon', line: { street: 'Rua Augusta', no: 12 } },
  { Item: { PK: { S: 'USER#u2' }, SK: { S: 'PROFILE' }, name: { S: 'Grace' }, email: { S: 'grace@example.com' }, GSI2PK: { S: 'EMAIL#grace@example.com' }, GSI2SK: { S: 'USER#u2' } } },
  { PK: 'USER#u2', SK: 'ORDER#2024-01-20#004', total: 99.99, status: 'OPEN', GSI1PK: 'STATUS#OPEN', GSI1SK: '2024-01-20' },
  { PK: 'USER#u2', SK: 'ORDER#2024-04-01#005', total: 5, status: 'OPEN', GSI1PK: 'STATUS#OPEN', GSI1SK: '2024-04-01' },
].map((x) => JSON.stringify(x)).join('\n');

// A DynamoDB call from the page (the same origin the console uses).
async function api(page, op, body) {
  return page.evaluate(
    async ([op, body]) => {
      const r = await fetch('/', { method: 'POST', headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': `DynamoDB_20120810.${op}` }, body: JSON.stringify(body) });
      return r.json();
    },
    [op, body],
  );
}

const texts = async (locator) => (await locator.allInnerTexts()).map((s) => s.trim());

export const steps = [
  {
    name: 'console-opens',
    async run({ page, url }) {
      const redirect = await fetch(`${url}/console`, { redirect: 'manual' });
      assert.equal(redirect.status, 301);
      assert.equal(redirect.headers.get('location'), '/console/');
      await page.goto(`${url}/console`);
      assert.equal(new URL(page.url()).pathname, '/console/');
      await page.getByText('No tables yet').waitFor();
      await page.getByTestId('create-table').waitFor();
    },
  },
  {
    name: 'create-table-with-two-gsis',
    async run({ page }) {
      await page.getByTestId('create-table').click();
      const dialog = page.getByTestId('create-dialog');
      await dialog.getByTestId('new-table-name').fill('shop');
      await dialog.getByTestId('add-gsi').click();
      await dialog.getByTestId('add-gsi').click();
      await dialog.getByTestId('add-lsi').click();
      const lsi = dialog.getByTestId('index-2');
      await lsi.locator('input').nth(0).fill('ByStatus');
      await lsi.locator('input').nth(1).fill('status');
      await dialog.getByTestId('new-stream').selectOption('NEW_AND_OLD_IMAGES');
      await dialog.getByTestId('new-ttl').fill('expiresAt');
      await dialog.locator('summary').click(); // the request preview, for the screenshot
      await page.screenshot({ path: new URL('./artifacts/02a-create-dialog.png', import.meta.url).pathname });
      await dialog.getByTestId('create-submit').click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.locator('tr[data-table="shop"]');
      await row.waitFor();
      const text = await row.innerText();
      for (const s of ['GSI1', 'GSI2', 'GSI1PK', 'GSI2SK', 'PK', 'SK', 'ByStatus', 'NEW_AND_OLD_IMAGES', 'TTL on expiresAt']) assert.ok(text.includes(s), `row lacks ${s}: ${text}`);
      const d = await api(page, 'DescribeTable', { TableName: 'shop' });
      assert.deepEqual(d.Table.GlobalSecondaryIndexes.map((g) => g.IndexName).sort(), ['GSI1', 'GSI2']);
      assert.deepEqual(d.Table.LocalSecondaryIndexes.map((l) => [l.IndexName, l.KeySchema[1].AttributeName]), [['ByStatus', 'status']]);
      assert.equal(d.Table.StreamSpecification.StreamViewType, 'NEW_AND_OLD_IMAGES');
      const ttl = await api(page, 'DescribeTimeToLive', { TableName: 'shop' });
      assert.deepEqual(ttl.TimeToLiveDescription, { TimeToLiveStatus: 'ENABLED', AttributeName: 'expiresAt' });
    },
  },
  {
    name: 'import-sample-data',
    async run({ page }) {
      await page.getByRole('link', { name: 'Import / Export' }).click();
      await page.getByTestId('import-text').fill(SAMPLE);
      await page.getByTestId('import-run').click();
      await page.getByTestId('transfer-message').filter({ hasText: 'imported 8 items' }).waitFor();
      const s = await api(page, 'Scan', { TableName: 'shop', Select: 'COUNT' });
      assert.equal(s.Count, 8);
      const ada = await api(page, 'GetItem', { TableName: 'shop', Key: { PK: { S: 'USER#u1' }, SK: { S: 'ADDRESS#home' } } });
      assert.deepEqual(ada.Item.line, { M: { street: { S: 'Rua Augusta' }, no: { N: '12' } } });
      // Export: the same eight items back as DynamoDB JSON lines and as CSV.
      const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
      const lines = readFileSync(await jsonl.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines.length, 8);
      assert.ok(lines.every((l) => Object.keys(l).join() === 'Item' && l.Item.PK.S.startsWith('USER#')));
      assert.deepEqual(lines.find((l) => l.Item.SK.S === 'ADDRESS#home').Item.line.M.no, { N: '12' });
      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
      const rows = readFileSync(await csv.path(), 'utf8').trim().split('\r\n');
      assert.equal(rows.length, 9);
      assert.match(rows[0], /^PK:S,SK:S,/);
      assert.ok(rows.some((r) => r.includes('"{""M"":{') && r.includes('""S"":""Rua Augusta""')), 'the map column holds DynamoDB JSON');
    },
  },
  {
    name: 'collection-by-entity-with-both-gsis',
    fullPage: true,
    async run({ page }) {
      await page.getByRole('link', { name: 'Collection lens' }).click();
      await page.getByRole('button', { name: 'USER#u2', exact: true }).waitFor(); // partitions sampled
      await page.getByTestId('lens-pk').fill('USER#u1');
      await page.getByTestId('lens-show').click();
      const base = page.getByTestId('lane-table');
      await base.locator('.card').nth(4).waitFor();
      // The collection in sort-key order, entities from the key prefixes.
      assert.deepEqual(await base.locator('.card').evaluateAll((cs) => cs.map((c) => c.dataset.entity)), ['ADDRESS', 'ORDER', 'ORDER', 'ORDER', 'USER']);
      assert.deepEqual(await texts(base.locator('.card .k')), ['ADDRESS#home', 'ORDER#2024-01-15#001', 'ORDER#2024-02-03#002', 'ORDER#2024-03-09#003', 'PROFILE']);
      assert.deepEqual(await texts(page.getByTestId('legend').locator('.ent')), ['ADDRESS', 'ORDER', 'USER']);
      // Both GSIs beside it: orders under their status partitions in date order, the profile
      // under its email; the rest absent (sparse).
      const g1 = page.getByTestId('lane-GSI1');
      const g2 = page.getByTestId('lane-GSI2');
      assert.deepEqual(await g1.locator('[data-partition]').evaluateAll((ps) => ps.map((p) => p.dataset.partition)), ['STATUS#OPEN', 'STATUS#SHIPPED']);
      assert.deepEqual(await texts(g1.locator('[data-partition="STATUS#OPEN"] .card .k')), ['2024-01-15', '2024-03-09']);
      assert.equal(await g1.getByTestId('absent').locator('.card').count(), 2);
      assert.match(await g1.locator('[data-partition="STATUS#OPEN"] .part').innerText(), /\+2 other/);
      assert.deepEqual(await texts(g2.locator('[data-partition] .card .k')), ['USER#u1']);
      assert.equal(await g2.getByTestId('absent').locator('.card').count(), 4);
      assert.match(await g2.getByTestId('absent').innerText(), /missing GSI2PK and GSI2SK/);
      // The LSI re-sorts the same partition by status; items without one are absent.
      const lsi = page.getByTestId('lane-ByStatus');
      assert.deepEqual(await texts(lsi.locator('[data-partition="USER#u1"] .card .k')), ['OPEN', 'OPEN', 'SHIPPED']);
      assert.equal(await lsi.getByTestId('absent').locator('.card').count(), 2);
      // One colour per entity in every lane.
      const colours = await page.locator('.card[data-entity="ORDER"]').evaluateAll((cs) => [...new Set(cs.map((c) => c.style.borderLeftColor))]);
      assert.equal(colours.length, 1);
      // DOCS_SCREENSHOT=path: the README's picture (docs/console.png).
      if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, clip: { x: 0, y: 0, width: 1440, height: 750 } });
    },
  },
  {
    name: 'collection-of-an-index-partition',
    fullPage: true,
    async run({ page }) {
      await page.getByTestId('lens-source').selectOption('GSI1');
      // The index's partitions are offered as buttons once sampled.
      await page.getByRole('button', { name: 'STATUS#SHIPPED', exact: true }).waitFor();
      await page.getByRole('button', { name: 'STATUS#OPEN', exact: true }).click();
      const base = page.getByTestId('lane-table');
      await base.locator('[data-partition="USER#u2"]').waitFor();
      assert.deepEqual(await texts(page.getByTestId('lane-GSI1').locator('.card .k')), ['2024-01-15', '2024-01-20', '2024-03-09', '2024-04-01']);
      assert.deepEqual(await base.locator('[data-partition]').evaluateAll((ps) => ps.map((p) => p.dataset.partition)), ['USER#u1', 'USER#u2']);
    },
  },
  {
    name: 'between-query-on-an-index',
    fullPage: true,
    async run({ page }) {
      await page.getByRole('link', { name: 'Query & Scan' }).click();
      await page.getByTestId('q-index').selectOption('GSI1');
      await page.getByTestId('q-pk').fill('STATUS#OPEN');
      await page.getByTestId('q-skop').selectOption('between');
      await page.getByTestId('q-sk1').fill('2024-01-01');
      await page.getByTestId('q-sk2').fill('2024-03-31');
      await page.getByTestId('add-filter').click();
      const f = page.getByTestId('filter-0');
      await f.getByTestId('f-path').fill('total');
      await f.getByTestId('f-op').selectOption('>');
      await f.getByTestId('f-kind-0').selectOption('N');
      await f.getByTestId('f-value-0').fill('10');
      await page.getByTestId('q-projection').fill('PK, SK, total, status');
      await page.getByTestId('run').click();
      const results = page.getByTestId('results');
      await results.waitFor();
      // Three orders between the dates, two of them over 10: Count 2 of ScannedCount 3.
      assert.equal(await page.getByTestId('stat-count').locator('b').innerText(), '2');
      assert.equal(await page.getByTestId('stat-scanned').locator('b').innerText(), '3');
      // Three small entries summed and rounded once, eventually consistent: 0.5 RCU, on GSI1.
      const capacity = await page.getByTestId('stat-capacity').innerText();
      assert.match(capacity, /^0\.5\b/);
      assert.match(capacity, /GSI1 0\.5/);
      const rows = await texts(results.locator('tbody tr td:nth-child(4)'));
      assert.deepEqual(rows, ['ORDER#2024-01-15#001', 'ORDER#2024-01-20#004']);
      const code = page.getByTestId('code-text');
      const boto3 = await code.innerText();
      for (const s of ['client.query(', 'IndexName="GSI1"', 'KeyConditionExpression="GSI1PK = :pk AND GSI1SK BETWEEN :sk1 AND :sk2"', 'ProjectionExpression="PK, SK, #total, #status"', '"#total": "total"', 'FilterExpression="#total > :total"', 'ReturnConsumedCapacity="INDEXES"'])
        assert.ok(boto3.includes(s), `boto3 lacks ${s}:\n${boto3}`);
      const expect = {
        js: ['new QueryCommand(', '"IndexName": "GSI1"', '":sk1": {'],
        cli: ['aws dynamodb query', '--index-name GSI1', "--key-condition-expression 'GSI1PK = :pk AND GSI1SK BETWEEN :sk1 AND :sk2'", '--endpoint-url'],
        go: ['client.Query(ctx, &dynamodb.QueryInput{', 'IndexName: aws.String("GSI1")', '&types.AttributeValueMemberS{Value: "2024-01-01"}', 'types.ReturnConsumedCapacityIndexes'],
        java: ['QueryRequest.builder()', '.indexName("GSI1")', 'AttributeValue.fromN("10")', 'ReturnConsumedCapacity.INDEXES'],
        partiql: ['SELECT "PK", "SK", "total", "status"', 'FROM "shop"."GSI1"', `"GSI1SK" BETWEEN '2024-01-01' AND '2024-03-31'`, '"total" > 10'],
      };
      const generated = { boto3 };
      for (const [lang, parts] of Object.entries(expect)) {
        await page.getByTestId(`lang-${lang}`).click();
        const text = await code.innerText();
        for (const s of parts) assert.ok(text.includes(s), `${lang} lacks ${s}:\n${text}`);
        generated[lang] = text;
      }
      // The Python and the shell code run as written against the server and get the same page.
      const env = { ...process.env, AWS_ACCESS_KEY_ID: 'console', AWS_SECRET_ACCESS_KEY: 'test', AWS_DEFAULT_REGION: 'us-east-1', AWS_PAGER: '' };
      const python = execFileSync('/usr/bin/python3', ['-c', generated.boto3], { env, encoding: 'utf8', timeout: 30000 });
      assert.match(python.split('\n')[0], /^2 3 \{/);
      // The JavaScript is at least valid syntax for Node (no SDK here to run it with).
      const js = join(mkdtempSync(join(tmpdir(), 'console-js-')), 'query.mjs');
      writeFileSync(js, generated.js);
      execFileSync(process.execPath, ['--check', js]);
      const cli = JSON.parse(execFileSync('bash', ['-c', generated.cli.trim() + ' --output json'], { env, encoding: 'utf8', timeout: 30000 }));
      assert.deepEqual([cli.Count, cli.ScannedCount, cli.ConsumedCapacity.CapacityUnits], [2, 3, 0.5]);
      assert.deepEqual(cli.Items.map((i) => i.SK.S), ['ORDER#2024-01-15#001', 'ORDER#2024-01-20#004']);
      await page.getByTestId('lang-boto3').click();
    },
  },
  {
    name: 'edit-item-size-readout',
    async run({ page }) {
      await page.getByTestId('results').locator('td', { hasText: 'ORDER#2024-01-15#001' }).click();
      const editor = page.getByTestId('editor');
      const json = editor.getByTestId('item-json');
      await page.waitForFunction(() => document.querySelector('[data-testid=item-json]')?.value.includes('GSI1SK'));
      const size = async () => Number((await editor.getByTestId('item-size').locator('b').innerText()).replace(/[^0-9]/g, ''));
      const before = await size();
      // PK 2+7, SK 2+20, total 5+2, status 6+4, GSI1PK 6+11, GSI1SK 6+10 = 81 bytes.
      assert.equal(before, 81);
      const item = JSON.parse(await json.inputValue());
      item.note = { S: 'gift wrap, please' };
      await json.fill(JSON.stringify(item, null, 2));
      assert.equal(await size(), before + 4 + 17);
      assert.match(await editor.getByTestId('arm-GSI1').innerText(), /update, entry 102 B\s+1 WCU/);
      assert.match(await editor.getByTestId('arm-GSI2').innerText(), /not indexed \(no GSI2PK, GSI2SK\)\s+0 WCU/);
      assert.match(await editor.getByTestId('arm-ByStatus').innerText(), /update, entry 102 B\s+1 WCU/);
      assert.equal(await editor.getByTestId('wcu-total').innerText(), '3 WCU');
      await editor.getByTestId('mode-plain').click();
      assert.ok((await json.inputValue()).includes('"note": "gift wrap, please"'));
      assert.equal(await size(), before + 21);
      await editor.getByTestId('save-item').click();
      // The server's own charge agrees with the readout: table 1, GSI1 1, ByStatus 1.
      assert.match(await editor.getByTestId('saved').innerText(), /saved · 3 WCU · GSI1 1 · ByStatus 1/);
      const stored = await api(page, 'GetItem', { TableName: 'shop', Key: { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#2024-01-15#001' } } });
      assert.deepEqual(stored.Item.note, { S: 'gift wrap, please' });
      await page.screenshot({ path: new URL('./artifacts/07a-editor-saved.png', import.meta.url).pathname });
      await editor.getByRole('button', { name: 'Close' }).click();
    },
  },
  {
    name: 'limit-and-pages',
    fullPage: true,
    async run({ page }) {
      await page.getByTestId('q-index').selectOption('');
      await page.getByTestId('filter-0').getByRole('button', { name: '×' }).click();
      await page.getByTestId('q-skop').selectOption('');
      await page.getByTestId('q-projection').fill('');
      await page.getByTestId('q-pk').fill('USER#u1');
      await page.getByTestId('q-limit').fill('2');
      await page.getByTestId('q-order').selectOption('desc');
      const sks = () => texts(page.getByTestId('items').locator('tbody tr td:nth-child(4)'));
      const waitRows = (first) =>
        page.waitForFunction((f) => document.querySelector('[data-testid=items] tbody tr td:nth-child(4)')?.textContent === f, first);
      await page.getByTestId('run').click();
      await waitRows('PROFILE');
      assert.deepEqual(await sks(), ['PROFILE', 'ORDER#2024-03-09#003']);
      assert.match(await page.getByTestId('results').innerText(), /LastEvaluatedKey \{"PK":\{"S":"USER#u1"\},"SK":\{"S":"ORDER#2024-03-09#003"\}\}/);
      await page.getByTestId('next-page').click();
      await waitRows('ORDER#2024-02-03#002');
      assert.deepEqual(await sks(), ['ORDER#2024-02-03#002', 'ORDER#2024-01-15#001']);
      await page.getByTestId('next-page').click();
      await waitRows('ADDRESS#home');
      assert.deepEqual(await sks(), ['ADDRESS#home']);
      assert.equal(await page.getByTestId('next-page').innerText(), 'No more pages');
      assert.deepEqual(await texts(page.getByTestId('pages').locator('button')), ['page 1', 'page 2', 'page 3']);
      assert.match(await page.getByTestId('results').innerText(), /1\.5\s+RCU over 3 pages/);
      // Back to the first page, as kept.
      await page.getByTestId('pages').getByRole('button', { name: 'page 1' }).click();
      await waitRows('PROFILE');
      await page.getByTestId('lang-cli').click();
      assert.match(await page.getByTestId('code-text').innerText(), /--no-scan-index-forward[\s\S]*--no-paginate[\s\S]*--cli-input-json '\{"Limit":2\}'/);
      await page.getByTestId('lang-boto3').click();
      assert.equal(await page.getByTestId('stale').count(), 0);
      await page.getByTestId('q-limit').fill('');
      await page.getByTestId('q-order').selectOption('asc');
      await page.getByTestId('stale').waitFor();
    },
  },
  {
    name: 'scan-with-or-not-filter-count-only',
    async run({ page }) {
      await page.getByTestId('mode-Scan').click();
      await page.getByTestId('add-filter').click();
      await page.getByTestId('add-filter').click();
      const f0 = page.getByTestId('filter-0'), f1 = page.getByTestId('filter-1');
      await f0.getByTestId('f-path').fill('status');
      await f0.getByTestId('f-value-0').fill('SHIPPED');
      await page.getByTestId('join').selectOption('OR');
      await f1.getByTestId('f-not').check();
      await f1.getByTestId('f-path').fill('GSI1PK');
      await f1.getByTestId('f-op').selectOption('attribute_exists');
      await page.getByTestId('q-count').check();
      const code = await page.getByTestId('code-text').innerText();
      assert.ok(code.includes('FilterExpression="#status = :status OR NOT (attribute_exists(GSI1PK))"'), code);
      assert.ok(code.includes('Select="COUNT"'), code);
      await page.getByTestId('run').click();
      // The shipped order, the address and both profiles (no GSI1PK) of the 8 items read.
      await page.waitForFunction(() => document.querySelector('[data-testid=stat-scanned] b')?.textContent === '8');
      assert.equal(await page.getByTestId('stat-count').locator('b').innerText(), '4');
      assert.equal(await page.getByTestId('items').locator('tbody tr').count(), 0);
      await page.getByTestId('q-count').uncheck();
      await f1.getByRole('button', { name: '×' }).click();
      await f0.getByRole('button', { name: '×' }).click();
      await page.getByTestId('mode-Query').click();
    },
  },
  nestedFilterStep,
  {
    name: 'bulk-delete-two-items',
    fullPage: true,
    async run({ page }) {
      await page.getByTestId('q-pk').fill('USER#u2');
      await page.getByTestId('run').click();
      const table = page.getByTestId('items');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=items] tbody tr').length === 3 || document.querySelector('[data-testid=stat-count] b')?.textContent === '3');
      assert.equal(await table.locator('tbody tr').count(), 3);
      const boxes = table.locator('tbody tr input[type=checkbox]');
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      // Bulk edit first: one attribute set on both selected items.
      await page.getByPlaceholder('attribute').fill('archived');
      await page.getByPlaceholder(/JSON value/).fill('true');
      await page.getByRole('button', { name: 'Update selected' }).click();
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=items] th')].some((th) => th.textContent === 'archived'));
      const edited = await api(page, 'Query', { TableName: 'shop', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': { S: 'USER#u2' } } });
      assert.deepEqual(edited.Items.map((i) => [i.SK.S, i.archived?.BOOL ?? null]), [
        ['ORDER#2024-01-20#004', true],
        ['ORDER#2024-04-01#005', true],
        ['PROFILE', null],
      ]);
      await page.getByTestId('bulk-delete').click(); // the confirm() is accepted by the runner
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=items] tbody tr').length === 1);
      const left = await api(page, 'Query', {
        TableName: 'shop',
        KeyConditionExpression: 'PK = :p',
        ExpressionAttributeValues: { ':p': { S: 'USER#u2' } },
      });
      assert.deepEqual(left.Items.map((i) => i.SK.S), ['PROFILE']);
    },
  },
  {
    name: 'partition-heat',
    async run({ page }) {
      await page.getByRole('link', { name: 'Heat' }).click();
      const table = page.getByTestId('heat-shop');
      await table.waitFor();
      // The imports, reads and deletes touched the users' partitions (Scans count too), the
      // index queries GSI1's STATUS#OPEN most.
      const touched = async (l) => Number(/(\d+) of 256 partitions touched/.exec(await l.innerText())[1]);
      assert.ok((await touched(table)) >= 2);
      assert.equal(await table.locator('.heat div[title*="reads"]').count(), await touched(table));
      const hot = await texts(table.locator('.pill.mono'));
      assert.ok(hot.some((k) => k.startsWith('USER#u1')) && hot.some((k) => k.startsWith('USER#u2')), hot.join());
      assert.match(await page.getByTestId('heat-GSI1').locator('.pill.mono').first().innerText(), /^STATUS#OPEN × \d+/);
    },
  },
  {
    name: 'stream-tail',
    async run({ page }) {
      await page.getByRole('link', { name: 'Stream' }).click();
      await page.getByTestId('tail').click();
      // Every write since the table was made: 8 imports, 1 edit, 2 bulk updates, 2 deletes, newest first.
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=record]').length === 13);
      const events = await texts(page.getByTestId('record').locator('td:first-child b'));
      assert.deepEqual(events.slice(0, 5), ['REMOVE', 'REMOVE', 'MODIFY', 'MODIFY', 'MODIFY']);
      assert.equal(events.filter((e) => e === 'INSERT').length, 8);
      await page.getByRole('button', { name: 'Stop' }).click();
    },
  },
  {
    name: 'partiql-warns-on-scan',
    async run({ page }) {
      await page.getByRole('link', { name: 'PartiQL' }).click();
      const editor = page.getByTestId('partiql');
      await editor.fill(`SELECT * FROM "shop" WHERE "total" > 10`);
      await page.getByTestId('scan-warning').waitFor();
      assert.match(await page.getByTestId('scan-warning').innerText(), /scan the whole table shop/);
      await editor.fill(`SELECT * FROM "shop" WHERE "PK" = 'USER#u1'`);
      await page.getByTestId('scan-warning').waitFor({ state: 'detached' });
      await page.getByTestId('partiql-run').click();
      await page.getByTestId('items').locator('tbody tr').nth(4).waitFor();
    },
  },
  {
    name: 'model-entities-and-access-pattern',
    fullPage: true,
    async run({ page, url, binary }) {
      // The ecommerce example's table and sample data, made by the workbench CLI.
      const model = new URL('../../examples/models/ecommerce.yaml', import.meta.url).pathname;
      execFileSync(binary, ['model', 'apply', model, '--endpoint', url]);
      execFileSync(binary, ['model', 'seed', model, '--endpoint', url, '--items', '60']);
      const scan = await api(page, 'Scan', { TableName: 'Store' });
      const orders = new Map();
      for (const it of scan.Items) if (it.PK.S.startsWith('CUSTOMER#') && it.SK.S.startsWith('ORDER#')) orders.set(it.PK.S, (orders.get(it.PK.S) ?? 0) + 1);
      const [customer, count] = [...orders].sort((a, b) => b[1] - a[1])[0];
      assert.ok(count >= 2, `a customer with orders: ${[...orders]}`);
      // Before a model is loaded, the lens infers entities from key prefixes.
      await page.goto(`${url}/console/#/lens/Store`);
      await page.reload(); // a new hash alone does not reload: the table list must be read again
      await page.getByText('partitions:').waitFor(); // sampled (it pre-fills the first partition)
      await page.getByTestId('lens-pk').fill(customer);
      await page.getByTestId('lens-show').click();
      const base = page.getByTestId('lane-table');
      await base.locator('.card').nth(count).waitFor();
      assert.deepEqual([...new Set(await base.locator('.card').evaluateAll((cs) => cs.map((c) => c.dataset.entity)))].sort(), ['CUSTOMER', 'ORDER']);
      // Load the model file: its entities, coloured, and its patterns as buttons.
      await page.getByRole('link', { name: 'Model', exact: true }).click();
      await page.getByTestId('model-file').setInputFiles(model);
      await page.getByTestId('model-entities').waitFor();
      assert.deepEqual(await texts(page.getByTestId('model-entities').locator('.pill')), ['Customer', 'Order', 'OrderItem', 'Product']);
      assert.match(await page.getByTestId('model-status').innerText(), /ecommerce \(ecommerce\.yaml\)/);
      // The lens now names the items by the model's entities (templates matched, not prefixes).
      await page.getByRole('link', { name: 'Collection lens' }).click();
      await page.getByText('partitions:').waitFor(); // sampled (it pre-fills the first partition)
      await page.getByTestId('lens-pk').fill(customer);
      await page.getByTestId('lens-show').click();
      await base.locator('.card').nth(count).waitFor();
      const entities = await base.locator('.card').evaluateAll((cs) => cs.map((c) => c.dataset.entity));
      assert.deepEqual(entities, [...Array(count).fill('Order'), 'Customer']);
      assert.deepEqual((await texts(page.getByTestId('legend').locator('.ent'))).sort(), ['Customer', 'Order']);
      assert.match(await page.getByTestId('legend').innerText(), /by the model ecommerce/);
      await page.screenshot({ path: new URL('./artifacts/11a-lens-by-model.png', import.meta.url).pathname, fullPage: true });
      // Run an access pattern: the request the model describes, its items and its capacity.
      await page.getByRole('link', { name: 'Model', exact: true }).click();
      await page.getByTestId('pattern-button-recentOrdersOfCustomer').click();
      const p = page.getByTestId('pattern-recentOrdersOfCustomer');
      await p.getByTestId('input-customerId').fill(customer.slice('CUSTOMER#'.length));
      await p.getByTestId('pattern-run').click();
      await p.getByTestId('pattern-result').waitFor();
      const request = await p.getByTestId('pattern-request').innerText();
      assert.match(request, /"KeyConditionExpression": "#pk = :pk AND begins_with\(#sk, :sk\)"/);
      assert.match(request, /"ScanIndexForward": false/);
      assert.equal(Number(await p.getByTestId('pattern-count').locator('b').innerText()), count);
      const capacity = Number(await p.getByTestId('pattern-capacity').locator('b').innerText());
      const direct = await api(page, 'Query', {
        TableName: 'Store',
        KeyConditionExpression: 'PK = :p AND begins_with(SK, :s)',
        ExpressionAttributeValues: { ':p': { S: customer }, ':s': { S: 'ORDER#' } },
        ScanIndexForward: false,
        Limit: 10,
        ReturnConsumedCapacity: 'TOTAL',
      });
      assert.ok(capacity > 0);
      assert.equal(capacity, direct.ConsumedCapacity.CapacityUnits);
      assert.equal(await p.getByTestId('items').locator('tbody tr').count(), count);
    },
  },
  {
    name: 'stream-triggers',
    async run({ page, browser, binary }) {
      // This server runs no triggers: the tab says how to start some.
      await page.getByRole('link', { name: 'Triggers' }).click();
      await page.getByTestId('triggers-none').waitFor();
      // A server with a triggers file: a command handler that keeps every batch, and one that
      // always fails (no retries), its records going to a file.
      const dir = mkdtempSync(join(tmpdir(), 'mt-console-triggers-'));
      const file = join(dir, 'triggers.json');
      writeFileSync(
        file,
        JSON.stringify({
          Triggers: [
            { Name: 'books-fanout', Table: 'Books', Command: ['/bin/sh', '-c', `cat >> ${join(dir, 'events.jsonl')}`], StartingPosition: 'TRIM_HORIZON', BatchSize: 2, MaximumBatchingWindowInSeconds: 1,
              FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT', 'MODIFY'] }) }] } },
            { Name: 'always-fails', Table: 'Books', Command: ['/bin/sh', '-c', 'echo handler broke >&2; exit 1'], StartingPosition: 'TRIM_HORIZON', MaximumRetryAttempts: 0,
              DestinationConfig: { OnFailure: { Destination: `file:${join(dir, 'failed.jsonl')}` } } },
          ],
        }),
      );
      const { proc, url } = await startServer(binary, {}, ['--triggers', file]);
      const p = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      try {
        await p.goto(`${url}/console/#/triggers`);
        const fanout = p.getByTestId('trigger-books-fanout');
        await fanout.waitFor();
        assert.match(await fanout.innerText(), /no stream yet/);
        await api(p, 'CreateTable', {
          TableName: 'Books', BillingMode: 'PAY_PER_REQUEST', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
        });
        for (const k of ['b1', 'b2', 'b3']) await api(p, 'PutItem', { TableName: 'Books', Item: { pk: { S: k }, title: { S: `Book ${k}` } } });
        await api(p, 'DeleteItem', { TableName: 'Books', Key: { pk: { S: 'b3' } } }); // filtered out by books-fanout
        // The view refreshes by itself: three records delivered in two batches (the batching window
        // fills the first), nothing behind.
        await fanout.getByTestId('trigger-delivered').filter({ hasText: /^3/ }).waitFor({ timeout: 15000 });
        assert.equal((await fanout.getByTestId('trigger-batches').innerText()).split('\n')[0], '2');
        assert.equal((await fanout.getByTestId('trigger-lag').innerText()).split('\n')[0], '0');
        assert.equal(await fanout.getByTestId('trigger-shard').count(), 1);
        assert.match(await fanout.getByTestId('trigger-shard').innerText(), /reading/);
        assert.match(await fanout.getByTestId('trigger-handler').innerText(), /^\/bin\/sh -c 'cat >> /);
        assert.match(await fanout.innerText(), /1 filter/);
        assert.match(await fanout.innerText(), /window 1 s/);
        const failing = p.getByTestId('trigger-always-fails');
        await failing.getByTestId('trigger-failed').filter({ hasText: /^4/ }).waitFor({ timeout: 15000 });
        assert.match(await failing.getByTestId('trigger-error').innerText(), /exited with status 1: handler broke/);
        assert.match(await failing.innerText(), /on failure → file:/);
        assert.equal(await failing.getByTestId('trigger-gave-up').innerText(), '4 records given up');
        await p.getByTestId('table-picker').locator('option', { hasText: 'Books' }).waitFor({ state: 'attached' });
        const summary = await p.getByTestId('triggers-summary').innerText();
        assert.match(summary, /^2 triggers/);
        // The stream disabled and enabled again: a second shard, read after the first (closed) one.
        await api(p, 'UpdateTable', { TableName: 'Books', StreamSpecification: { StreamEnabled: false } });
        await api(p, 'UpdateTable', { TableName: 'Books', StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } });
        await api(p, 'PutItem', { TableName: 'Books', Item: { pk: { S: 'b4' } } });
        await fanout.getByTestId('trigger-delivered').filter({ hasText: /^4/ }).waitFor({ timeout: 15000 });
        await fanout.getByTestId('trigger-shard').nth(1).waitFor();
        const shards = await fanout.getByTestId('trigger-shard').allInnerTexts();
        assert.equal(shards.length, 2);
        assert.match(shards[0], /closed/);
        assert.doesNotMatch(shards[0], /reading/);
        assert.match(shards[1], /reading\s*open/);
        await p.screenshot({ path: new URL('./artifacts/10b-triggers.png', import.meta.url).pathname, fullPage: true });
      } finally {
        await p.close();
        proc.kill('SIGTERM');
      }
    },
  },
  {
    name: 'signed-requests-with-a-session-key',
    async run({ browser, binary }) {
      // A server that checks signatures: the console asks for a key and signs with it (SigV4).
      const { proc, url } = await startServer(binary, { MONOTABLE_CREDENTIALS: 'AKCONSOLETEST:console-secret' });
      const page = await browser.newPage();
      try {
        page.on('dialog', (d) => d.accept());
        await page.goto(`${url}/console/`);
        await page.getByRole('alert').filter({ hasText: 'MissingAuthenticationToken' }).waitFor();
        const dialog = page.locator('.modal', { hasText: 'Signing key' });
        const inputs = dialog.locator('input');
        await inputs.nth(0).fill('AKCONSOLETEST');
        await inputs.nth(1).fill('wrong-secret');
        await dialog.getByRole('button', { name: 'Use this key' }).click();
        await page.getByRole('alert').filter({ hasText: 'InvalidSignature' }).waitFor();
        await page.locator('.modal', { hasText: 'Signing key' }).locator('input').nth(1).fill('console-secret');
        await page.locator('.modal', { hasText: 'Signing key' }).getByRole('button', { name: 'Use this key' }).click();
        await page.getByText('No tables yet').waitFor();
        await page.getByTestId('create-table').click();
        await page.getByTestId('new-table-name').fill('signed');
        await page.getByTestId('create-submit').click();
        await page.locator('tr[data-table="signed"]').waitFor();
        assert.match(await page.locator('header.top').innerText(), /signing as AKCONSOLETEST/);
        // The heat map shows key values: the server answers its GET only signed, and the console signs it.
        const unsigned = await page.evaluate(async () => (await fetch('/monotable/heat?table=signed')).status);
        assert.equal(unsigned, 403);
        await page.locator('tr[data-table="signed"] a').first().click();
        await page.getByRole('link', { name: 'Heat' }).click();
        await page.getByTestId('heat-signed').waitFor();
        assert.match(await page.getByTestId('heat-signed').innerText(), /\d+ of 256 partitions touched/);
        assert.equal(await page.getByRole('alert').count(), 0);
        const stored = await page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie]);
        assert.deepEqual(stored, [1, 0, '']);
        await page.screenshot({ path: new URL('./artifacts/10a-signed.png', import.meta.url).pathname });
      } finally {
        await page.close();
        proc.kill('SIGTERM');
      }
    },
  },
];
