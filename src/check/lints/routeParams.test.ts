import { describe, expect, it } from 'vitest';
import { miniSpec } from '../fixtures/miniSpec.ts';
import { validateSpec } from '../validateSpec.ts';
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

  it('refuses a detail screen whose route names no row, and a route with a query string', () => {
    const s = miniSpec();
    s.screens.ticket!.route = '/ticket';
    expect(routeParams(s)).toEqual([
      expect.objectContaining({
        path: 'screens.ticket.route',
        hint: 'add a param for the row, e.g. "/ticket/:id"',
      }),
    ]);
    const q = miniSpec();
    q.screens.newTicket!.route = '/tickets/new?title=:title';
    const d = validateSpec(q).diagnostics;
    expect(d).toEqual([
      expect.objectContaining({
        path: 'screens.newTicket.route',
        message: expect.stringContaining('a route is a path'),
        hint: expect.stringContaining('"/tickets/new"'),
      }),
    ]);
  });
});
