import type { AppSpec } from '../../../src/spec/types.ts';

/**
 * A clinic's appointments, the example of issue 32 item 2: everyone signed in sees every
 * appointment's time and status (to see availability), but its reason and notes only the patient
 * and the staff. Any member may check a patient in (a transition of a row whose reason they
 * cannot read).
 */
export const clinicSpec: AppSpec = {
  purpose: { name: 'Clinic', summary: 'Appointments of patients.', users: ['patients', 'staff'] },
  screens: {
    appointments: {
      route: '/appointments',
      kind: 'list',
      title: 'Appointments',
      entity: 'appointment',
      nav: ['member'],
    },
    appointment: { route: '/appointments/:id', kind: 'detail', title: 'Appointment', entity: 'appointment' },
  },
  entities: {
    person: {
      label: 'Person',
      profile: true,
      title: 'name',
      fields: { name: { type: 'text', required: true } },
    },
    appointment: {
      label: 'Appointment',
      title: 'slot',
      fields: {
        slot: { type: 'text', required: true, label: 'Slot' },
        start: { type: 'datetime', required: true },
        patient: { type: 'user', owner: true },
        status: { type: 'status', required: true },
        reason: { type: 'longtext', read: 'patient = me or me is staff' },
        notes: { type: 'text', read: 'patient = me or me is staff' },
        fee: { type: 'number', read: 'me is staff' },
      },
    },
  },
  states: {
    appointment: {
      field: 'status',
      initial: 'booked',
      states: { booked: {}, arrived: { final: true } },
      transitions: {
        checkIn: { label: 'Check in', from: ['booked'], to: 'arrived', roles: ['member'] },
      },
    },
  },
  validation: {},
  roles: {
    roles: {
      member: { label: 'Member', signup: true },
      staff: { label: 'Staff', inherits: ['member'] },
    },
    permissions: {
      member: {
        person: { read: true },
        appointment: {
          read: true,
          create: true,
          update: { when: 'patient = me', fields: ['slot', 'start', 'reason', 'notes'] },
        },
      },
      staff: { appointment: { update: { when: true, fields: ['fee'] } } },
    },
  },
  calls: { declared: {} },
  errors: {},
  constants: {},
};
