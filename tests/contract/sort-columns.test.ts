import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { tenantListQuerySchema } from '../../contract/schemas/tenants.ts';
import { formatSort, ORGANIZATION_SORT_COLUMNS, parseSort } from '../../contract/sort-columns.ts';

describe('the sort encoding column:asc|desc', () => {
  it('reads what it writes', () => {
    const order = { column: 'city', direction: 'desc' } as const;
    expect(formatSort(order)).toBe('city:desc');
    expect(parseSort(ORGANIZATION_SORT_COLUMNS, formatSort(order))).toEqual(order);
  });

  it.each(['phone:asc', 'city:up', 'city', 'city:asc:desc', ':asc', 'CITY:asc', ''])('refuses %j', (text) => {
    expect(parseSort(ORGANIZATION_SORT_COLUMNS, text)).toBeUndefined();
  });

  it('is what the API query takes, refusing anything else with the invalidSort code', () => {
    expect(v.parse(tenantListQuerySchema, { sort: 'end_date:desc' }).sort).toEqual({
      column: 'end_date',
      direction: 'desc',
    });
    const refused = v.safeParse(tenantListQuerySchema, { sort: 'federation_status:asc' });
    expect(refused.success ? [] : refused.issues.map((issue) => issue.message)).toEqual(['invalidSort']);
  });
});
