import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import teamTasks from '../../examples/tasks/spec.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { withoutComputed } from './computedValues.ts';
import { relatedAddLink } from './relatedAddLink.ts';
import { routeTable } from './routeTable.ts';

function app(spec: unknown) {
  const model = resolve(spec as AppSpec);
  return { model, routes: routeTable(model) };
}

describe('relatedAddLink', () => {
  it("links a project's tasks to the new task form, and a task's time to the log time form, parent filled in", () => {
    const { model, routes } = app(teamTasks);
    expect(relatedAddLink(model, routes, 'task', 'project', 'p 1')).toEqual({
      to: '/tasks/new?project=p+1',
      title: 'New task',
    });
    expect(relatedAddLink(model, routes, 'timeEntry', 'task', 't1')).toEqual({
      to: '/time/new?task=t1',
      title: 'Log time',
    });
  });

  it('offers no link without a create form, or when the form does not ask for the parent', () => {
    // Expense lines have an edit form only; they keep the add dialog.
    const e = app(expenses);
    expect(relatedAddLink(e.model, e.routes, 'line', 'claim', 'c1')).toBeUndefined();
    // The new ticket form never asks for the requester (the creating user).
    const h = app(helpdesk);
    expect(relatedAddLink(h.model, h.routes, 'ticket', 'requester', 'u1')).toBeUndefined();
  });
});

describe('withoutComputed', () => {
  it("drops the fields the server computes (a task's organisation, inherited from its project's page)", () => {
    const { model } = app(teamTasks);
    expect(withoutComputed(model, 'task', { project: 'p1', organisation: 'o1', title: 'Gangway' })).toEqual({
      project: 'p1',
      title: 'Gangway',
    });
    expect(withoutComputed(model, 'project', { organisation: 'o1', name: 'Quay' })).toEqual({
      organisation: 'o1',
      name: 'Quay',
    });
  });
});
