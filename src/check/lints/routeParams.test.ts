import { describe, expect, it } from 'vitest';
import { miniSpec } from '../fixtures/miniSpec.ts';
import { routeParams } from './routeParams.ts';

describe('routeParams lint', () => {
  it('accepts a row param of any name on detail and form screens', () => {
    const s = miniSpec();
    s.screens.ticket!.route = '/tickets/:ticketId';
    s.screens.editTicket = {
      route: '/tickets/:ticketId/edit',
      kind: 'form',
      title: 'Edit',
      entity: 'ticket',
      fields: ['title'],
    };
    expect(routeParams(s)).toEqual([]);
  });

  it('still refuses unknown params on list screens and extra params on detail screens', () => {
    const s = miniSpec();
    s.screens.tickets!.route = '/tickets/:bogus';
    s.screens.ticket!.route = '/tickets/:bogus/:ticketId';
    expect(routeParams(s).map((d) => d.path)).toEqual(['screens.tickets.route', 'screens.ticket.route']);
  });
});
