import { defineApp } from 'ninefold';
import { de } from './translations.de.ts';

/**
 * Helpdesk: a small support desk. Customers file tickets and follow them, agents triage,
 * answer and solve them, administrators run the desk (categories, people, roles).
 *
 * The flagship reference app: every later part of Ninefold (SQL migration, embedded backend,
 * React runtime, documents) is proven on it, so it uses all nine sections.
 */
export default defineApp({
  purpose: {
    name: 'Helpdesk',
    summary:
      'A small support desk. Customers sign up, file tickets about their problems and follow the ' +
      'conversation until the problem is solved. Agents triage incoming tickets, answer customers, ' +
      'keep internal notes the customer never sees, and solve tickets within first-response and ' +
      'resolution targets that depend on the priority. A solved ticket can be reopened for a few days; ' +
      'after that it is closed for good. Administrators maintain the categories, the saved replies and ' +
      'the people of the desk and their roles.',
    users: [
      'Customers, who file tickets and follow their own requests',
      'Agents, who triage, answer and solve tickets',
      'Administrators, who run the desk: categories, people and roles',
    ],
  },

  screens: {
    dashboard: {
      route: '/',
      kind: 'dashboard',
      title: 'Dashboard',
      shows:
        'Tickets by status; for customers their own open requests, for agents the tickets assigned ' +
        'to them and the tickets that need a first response.',
      entity: 'ticket',
      nav: ['customer', 'agent'],
    },
    tickets: {
      route: '/tickets',
      kind: 'list',
      title: 'Tickets',
      shows: 'Every ticket the user may read, newest first, searchable and filterable.',
      entity: 'ticket',
      nav: ['customer', 'agent'],
      columns: ['title', 'status', 'priority', 'category', 'requester', 'assignee', 'dueAt'],
      filters: ['status', 'priority', 'category', 'assignee'],
      sort: '-createdAt',
    },
    myQueue: {
      route: '/queue',
      kind: 'list',
      title: 'My queue',
      shows: 'The tickets assigned to me that are not solved yet, most urgent due date first.',
      entity: 'ticket',
      nav: ['agent'],
      columns: ['title', 'status', 'priority', 'requester', 'dueAt'],
      filters: ['status', 'priority'],
      sort: 'dueAt',
      where: 'assignee = me and status in (new, open, pending)',
    },
    awaitingResponse: {
      route: '/awaiting-response',
      kind: 'list',
      title: 'Late first responses',
      shows: 'New tickets that have waited longer than the first-response target for their priority.',
      entity: 'ticket',
      nav: ['agent'],
      columns: ['title', 'priority', 'category', 'requester'],
      filters: ['priority', 'category'],
      sort: 'createdAt',
      where:
        'status = new and firstResponseAt is empty and (' +
        '(priority = urgent and createdAt < now - hours(firstResponseHoursUrgent)) or ' +
        '(priority = high and createdAt < now - hours(firstResponseHoursHigh)) or ' +
        '(priority = normal and createdAt < now - hours(firstResponseHoursNormal)) or ' +
        '(priority = low and createdAt < now - hours(firstResponseHoursLow)))',
    },
    newTicket: {
      route: '/tickets/new',
      kind: 'form',
      title: 'New ticket',
      shows: 'The form a customer (or an agent) fills in to file a ticket.',
      entity: 'ticket',
      nav: ['customer', 'agent'],
      fields: ['title', 'category', 'priority', 'description'],
    },
    editTicket: {
      route: '/tickets/:id/edit',
      kind: 'form',
      title: 'Edit ticket',
      shows: 'Corrects the subject or description of a ticket; fields the role may not change are read-only.',
      entity: 'ticket',
      fields: ['title', 'category', 'priority', 'description'],
    },
    ticket: {
      route: '/tickets/:id',
      kind: 'detail',
      title: 'Ticket',
      shows:
        'One ticket: its fields, the conversation (internal notes only for agents), attachments, ' +
        'the history timeline and the actions the user may take.',
      entity: 'ticket',
      related: ['comment.ticket', 'attachment.ticket'],
    },
    board: {
      route: '/board',
      kind: 'board',
      title: 'Board',
      shows: 'Tickets that are not closed, in one column per status; moving a card runs the transition.',
      entity: 'ticket',
      nav: ['agent'],
      columns: ['title', 'priority', 'assignee', 'dueAt'],
      filters: ['priority', 'category', 'assignee'],
      where: 'status != closed',
    },
    savedReplies: {
      route: '/replies',
      kind: 'list',
      title: 'Saved replies',
      shows: 'Canned answers agents paste into comments: their own and the shared ones.',
      entity: 'savedReply',
      nav: ['agent'],
      columns: ['title', 'category', 'shared', 'createdBy'],
      filters: ['category', 'shared'],
      sort: 'title',
    },
    categories: {
      route: '/admin/categories',
      kind: 'list',
      title: 'Categories',
      shows: 'The categories customers file tickets under; inactive ones are hidden from customers.',
      entity: 'category',
      nav: ['admin'],
      columns: ['name', 'active', 'defaultAssignee'],
      filters: ['active'],
      sort: 'name',
    },
    savedReply: {
      route: '/replies/:id',
      kind: 'detail',
      title: 'Saved reply',
      shows: 'One saved reply: its text to copy into a comment, its category and who shares it.',
      entity: 'savedReply',
    },
    newSavedReply: {
      route: '/replies/new',
      kind: 'form',
      title: 'New saved reply',
      shows: 'An agent writes a canned answer, for themselves or shared with every agent.',
      entity: 'savedReply',
      fields: ['title', 'body', 'category', 'shared'],
    },
    editSavedReply: {
      route: '/replies/:id/edit',
      kind: 'form',
      title: 'Edit saved reply',
      shows: 'Corrects a saved reply; only its author (or an admin) may.',
      entity: 'savedReply',
      fields: ['title', 'body', 'category', 'shared'],
    },
    category: {
      route: '/admin/categories/:id',
      kind: 'detail',
      title: 'Category',
      shows: 'One category: its description, whether customers may choose it, its default assignee.',
      entity: 'category',
    },
    newCategory: {
      route: '/admin/categories/new',
      kind: 'form',
      title: 'New category',
      shows: 'An admin adds a category customers can file tickets under.',
      entity: 'category',
      fields: ['name', 'description', 'active', 'defaultAssignee'],
    },
    editCategory: {
      route: '/admin/categories/:id/edit',
      kind: 'form',
      title: 'Edit category',
      shows: 'An admin renames a category, describes it, retires it or changes its default assignee.',
      entity: 'category',
      fields: ['name', 'description', 'active', 'defaultAssignee'],
    },
    person: {
      route: '/people/:id',
      kind: 'detail',
      title: 'Person',
      shows: 'One person of the desk and the tickets they filed.',
      entity: 'person',
      related: ['ticket.requester'],
    },
    users: {
      route: '/admin/users',
      kind: 'admin',
      title: 'Users',
      shows: 'Everyone who signed up, their roles (customer, agent, admin) and their profile.',
      entity: 'person',
      nav: ['admin'],
      columns: ['name', 'email', 'organisation'],
      filters: ['organisation'],
      sort: 'name',
    },
  },

  entities: {
    person: {
      label: 'Person',
      plural: 'People',
      title: 'name',
      profile: true,
      fields: {
        name: { type: 'text', label: 'Name', required: true, list: true },
        email: {
          type: 'email',
          label: 'E-mail',
          help: 'Where notifications about tickets are sent.',
          required: true,
          unique: true,
          list: true,
        },
        organisation: {
          type: 'text',
          label: 'Organisation',
          help: 'The company or team the customer belongs to.',
          list: true,
        },
        phone: { type: 'text', label: 'Phone', help: 'For urgent tickets only.', search: false },
      },
    },
    ticket: {
      label: 'Ticket',
      plural: 'Tickets',
      title: 'title',
      live: true,
      fields: {
        title: {
          audited: true,
          type: 'text',
          label: 'Subject',
          help: 'One line that says what is wrong, e.g. "Invoice PDF will not download".',
          required: true,
          list: true,
        },
        description: {
          type: 'longtext',
          label: 'Description',
          help: 'What happened, what you expected, and the steps to see it again.',
          required: true,
        },
        priority: {
          audited: true,
          type: 'enum',
          label: 'Priority',
          help: 'Urgent: the service is down for you. High: a major feature is broken. Normal: everything else.',
          values: [
            { value: 'low', color: 'gray' },
            { value: 'normal', color: 'blue' },
            { value: 'high', color: 'orange' },
            { value: 'urgent', color: 'red' },
          ],
          default: 'normal',
          required: true,
          list: true,
        },
        category: {
          audited: true,
          type: 'ref',
          ref: 'category',
          label: 'Category',
          onDelete: 'restrict',
          list: true,
        },
        requester: {
          type: 'user',
          label: 'Requester',
          help: 'The person who filed the ticket.',
          owner: true,
          onDelete: 'restrict',
          list: true,
        },
        assignee: {
          audited: true,
          type: 'user',
          label: 'Assignee',
          help: 'The agent working on the ticket.',
          onDelete: 'set null',
          list: true,
        },
        status: { type: 'status', label: 'Status', required: true, list: true },
        dueAt: {
          audited: true,
          type: 'datetime',
          label: 'Due',
          help: 'When the ticket should be solved; at most the resolution target for its priority.',
          list: true,
        },
        firstResponseAt: { type: 'datetime', label: 'First response' },
        solvedAt: { type: 'datetime', label: 'Solved' },
        closedAt: { type: 'datetime', label: 'Closed' },
        resolution: {
          type: 'longtext',
          label: 'Resolution',
          help: 'How the problem was solved; sent to the requester.',
        },
        reopenReason: { type: 'longtext', label: 'Reason for reopening' },
        reopenCount: { type: 'integer', label: 'Times reopened', default: 0, required: true },
        rating: {
          type: 'enum',
          label: 'Rating',
          help: 'How the requester rated the help they got, once the ticket is solved.',
          values: ['good', 'bad'],
        },
        ratingComment: { type: 'longtext', label: 'Rating comment' },
      },
    },
    comment: {
      label: 'Comment',
      plural: 'Comments',
      live: true,
      fields: {
        ticket: {
          audited: true,
          type: 'ref',
          ref: 'ticket',
          label: 'Ticket',
          required: true,
          onDelete: 'cascade',
        },
        author: { type: 'user', label: 'Author', owner: true, onDelete: 'restrict', list: true },
        body: { type: 'longtext', label: 'Message', required: true, list: true },
        internal: {
          type: 'boolean',
          label: 'Internal note',
          help: 'Internal notes are seen by agents only, never by the customer.',
          default: false,
          required: true,
          list: true,
        },
      },
    },
    attachment: {
      label: 'Attachment',
      plural: 'Attachments',
      files: true,
      fields: {
        ticket: {
          audited: true,
          type: 'ref',
          ref: 'ticket',
          label: 'Ticket',
          required: true,
          onDelete: 'cascade',
        },
        uploadedBy: { type: 'user', label: 'Uploaded by', owner: true, onDelete: 'restrict', list: true },
        internal: {
          type: 'boolean',
          label: 'Internal',
          help: 'Internal attachments are seen by agents only.',
          default: false,
          required: true,
          list: true,
        },
      },
    },
    category: {
      label: 'Category',
      plural: 'Categories',
      title: 'name',
      fields: {
        name: { type: 'text', label: 'Name', required: true, unique: true, list: true },
        description: {
          type: 'longtext',
          label: 'Description',
          help: 'Shown to customers when they choose a category.',
        },
        active: {
          type: 'boolean',
          label: 'Active',
          help: 'Inactive categories are kept for old tickets but cannot be chosen for new ones.',
          default: true,
          required: true,
          list: true,
        },
        defaultAssignee: {
          type: 'user',
          label: 'Default assignee',
          help: 'The agent who usually takes tickets in this category.',
          onDelete: 'set null',
        },
      },
    },
    savedReply: {
      label: 'Saved reply',
      plural: 'Saved replies',
      title: 'title',
      fields: {
        title: { type: 'text', label: 'Title', required: true, list: true },
        body: { type: 'longtext', label: 'Text', required: true },
        category: { type: 'ref', ref: 'category', label: 'Category', onDelete: 'set null', list: true },
        shared: {
          type: 'boolean',
          label: 'Shared',
          help: 'Shared replies are offered to every agent.',
          default: false,
          required: true,
          list: true,
        },
        createdBy: { type: 'user', label: 'Created by', owner: true, onDelete: 'cascade', list: true },
      },
    },
  },

  states: {
    ticket: {
      field: 'status',
      initial: 'new',
      states: {
        new: {
          label: 'New',
          description: 'Filed by the customer, not yet taken by an agent.',
          waitingOn: 'me is agent',
        },
        open: { label: 'Open', description: 'An agent is working on it.', waitingOn: 'assignee = me' },
        pending: {
          label: 'Waiting on customer',
          description: 'The agent needs an answer from the customer.',
          waitingOn: 'requester = me',
        },
        solved: {
          label: 'Solved',
          description: 'The agent solved it; the customer can reopen it for a few days.',
          waitingOn: 'requester = me',
        },
        closed: {
          label: 'Closed',
          final: true,
          description: 'Done for good; a new problem needs a new ticket.',
        },
      },
      transitions: {
        take: {
          label: 'Take',
          from: ['new'],
          to: 'open',
          roles: ['agent'],
          set: { assignee: 'me', firstResponseAt: 'now' },
        },
        triage: {
          label: 'Triage and assign',
          from: ['new'],
          to: 'open',
          roles: ['agent'],
          input: ['assignee', 'dueAt'],
          set: { firstResponseAt: 'now' },
        },
        ask_customer: {
          label: 'Wait on customer',
          from: ['open'],
          to: 'pending',
          roles: ['agent'],
          guard: 'assignee = me or me is admin',
          guardError: 'NOT_ASSIGNEE',
        },
        resume: {
          label: 'Resume',
          from: ['pending'],
          to: 'open',
          roles: ['customer', 'agent'],
          guard: 'requester = me or me is agent',
          guardError: 'NOT_REQUESTER',
        },
        solve: {
          label: 'Solve',
          from: ['open', 'pending'],
          to: 'solved',
          roles: ['agent'],
          guard: 'assignee is empty or assignee = me or me is admin',
          guardError: 'NOT_ASSIGNEE',
          input: ['resolution'],
          set: { solvedAt: 'now', assignee: 'me' },
          calls: ['notifyRequester'],
        },
        reopen: {
          label: 'Reopen',
          from: ['solved'],
          to: 'open',
          roles: ['customer', 'agent'],
          guard: 'solvedAt > now - days(reopenWindowDays) and (requester = me or me is agent)',
          guardError: 'REOPEN_WINDOW_PASSED',
          input: ['reopenReason'],
          // A rating belongs to a solution: reopening withdraws it (RATING_BEFORE_SOLVED would refuse it).
          set: { solvedAt: 'null', reopenCount: 'reopenCount + 1', rating: 'null', ratingComment: 'null' },
        },
        rate: {
          label: 'Rate',
          // Rating leaves the ticket solved: the customer may still reopen or close it.
          from: ['solved'],
          to: 'solved',
          roles: ['customer'],
          // Only the requester reads the ticket as a customer; one rating per solution.
          guard: 'rating is empty',
          guardError: 'ALREADY_RATED',
          input: ['rating'],
          // The comment says why: asked for, never required.
          optionalInput: ['ratingComment'],
        },
        close: {
          label: 'Close',
          from: ['solved'],
          to: 'closed',
          roles: ['customer', 'agent'],
          guard: 'requester = me or me is agent',
          guardError: 'NOT_REQUESTER',
          set: { closedAt: 'now' },
          confirm: true,
        },
        withdraw: {
          label: 'Withdraw',
          from: ['new', 'open', 'pending'],
          to: 'closed',
          roles: ['customer'],
          guard: 'requester = me',
          guardError: 'NOT_REQUESTER',
          set: { closedAt: 'now' },
          confirm: true,
        },
        discard: {
          label: 'Discard as spam',
          from: ['new'],
          to: 'closed',
          roles: ['agent'],
          input: ['resolution'],
          set: { closedAt: 'now', assignee: 'me' },
          confirm: true,
        },
      },
    },
  },

  validation: {
    person: [
      { kind: 'field', field: 'name', maxLength: 'nameMaxLength', error: 'NAME_TOO_LONG' },
      { kind: 'field', field: 'email', format: 'email', error: 'EMAIL_INVALID' },
      { kind: 'field', field: 'phone', format: 'phone', error: 'PHONE_INVALID' },
    ],
    ticket: [
      { kind: 'field', field: 'title', minLength: 'titleMinLength', error: 'TITLE_TOO_SHORT' },
      { kind: 'field', field: 'title', maxLength: 'titleMaxLength', error: 'TITLE_TOO_LONG' },
      {
        kind: 'field',
        field: 'description',
        minLength: 'descriptionMinLength',
        error: 'DESCRIPTION_TOO_SHORT',
      },
      {
        kind: 'field',
        field: 'description',
        maxLength: 'descriptionMaxLength',
        error: 'DESCRIPTION_TOO_LONG',
      },
      { kind: 'field', field: 'resolution', minLength: 'resolutionMinLength', error: 'RESOLUTION_TOO_SHORT' },
      { kind: 'field', field: 'reopenReason', maxLength: 'commentMaxLength', error: 'COMMENT_TOO_LONG' },
      { kind: 'field', field: 'ratingComment', maxLength: 'commentMaxLength', error: 'COMMENT_TOO_LONG' },
      {
        kind: 'row',
        rule: 'assignee is empty or assignee is agent',
        field: 'assignee',
        error: 'ASSIGNEE_NOT_AGENT',
      },
      {
        kind: 'row',
        rule: 'category is empty or category.active = true',
        when: 'status = new',
        field: 'category',
        error: 'CATEGORY_INACTIVE',
      },
      {
        kind: 'row',
        rule: 'dueAt <= createdAt + hours(resolutionHoursUrgent)',
        when: 'priority = urgent and dueAt is not empty',
        field: 'dueAt',
        error: 'DUE_AFTER_TARGET',
      },
      {
        kind: 'row',
        rule: 'dueAt <= createdAt + hours(resolutionHoursHigh)',
        when: 'priority = high and dueAt is not empty',
        field: 'dueAt',
        error: 'DUE_AFTER_TARGET',
      },
      {
        kind: 'row',
        rule: 'dueAt <= createdAt + hours(resolutionHoursNormal)',
        when: 'priority = normal and dueAt is not empty',
        field: 'dueAt',
        error: 'DUE_AFTER_TARGET',
      },
      {
        kind: 'row',
        rule: 'dueAt <= createdAt + hours(resolutionHoursLow)',
        when: 'priority = low and dueAt is not empty',
        field: 'dueAt',
        error: 'DUE_AFTER_TARGET',
      },
      {
        kind: 'row',
        rule: 'rating is empty or status in (solved, closed)',
        field: 'rating',
        error: 'RATING_BEFORE_SOLVED',
      },
      {
        // A due date is set in the future. onChange: an overdue ticket stays workable (taking,
        // solving, editing its subject); only setting its due date must look ahead. Last, so
        // the rules above keep their indices (constraint names).
        kind: 'row',
        rule: 'dueAt >= now',
        when: 'dueAt is not empty',
        field: 'dueAt',
        onChange: true,
        error: 'DUE_IN_PAST',
      },
    ],
    comment: [
      { kind: 'field', field: 'body', maxLength: 'commentMaxLength', error: 'COMMENT_TOO_LONG' },
      { kind: 'row', rule: 'ticket.status != closed', error: 'TICKET_CLOSED' },
    ],
    attachment: [
      { kind: 'row', rule: 'size <= maxAttachmentMb * 1048576', error: 'ATTACHMENT_TOO_LARGE' },
      {
        // On the attachment row, after the write: the ticket's attachments, this one included.
        // Internal and customer-visible attachments have a limit each, so a customer filling the
        // ticket does not stop agents attaching internal files (and counts never include rows the
        // writer cannot read: docs/security.md, "Non-interference").
        kind: 'row',
        rule: 'count(attachment where ticket = this.ticket and internal = this.internal) <= maxAttachmentsPerTicket',
        error: 'TOO_MANY_ATTACHMENTS',
      },
      { kind: 'row', rule: 'ticket.status != closed', error: 'TICKET_CLOSED' },
    ],
    category: [{ kind: 'field', field: 'name', maxLength: 'nameMaxLength', error: 'NAME_TOO_LONG' }],
    savedReply: [
      { kind: 'field', field: 'title', maxLength: 'titleMaxLength', error: 'TITLE_TOO_LONG' },
      { kind: 'field', field: 'body', maxLength: 'commentMaxLength', error: 'COMMENT_TOO_LONG' },
    ],
  },

  roles: {
    roles: {
      customer: {
        label: 'Customer',
        description: 'Files tickets and follows their own requests.',
        signup: true,
      },
      agent: {
        label: 'Agent',
        description: 'Triages, answers and solves tickets; writes internal notes.',
      },
      admin: {
        label: 'Administrator',
        description: 'Runs the desk: categories, people and roles. Can do everything an agent can.',
        inherits: ['agent'],
      },
    },
    permissions: {
      customer: {
        person: {
          read: 'id = me or id is agent',
          create: false,
          update: { when: 'id = me', fields: ['name', 'organisation', 'phone'] },
          delete: false,
        },
        ticket: {
          read: 'requester = me',
          create: 'assignee is empty and dueAt is empty',
          update: {
            when: 'requester = me and status != closed',
            fields: ['title', 'description', 'rating', 'ratingComment'],
          },
          delete: false,
        },
        comment: {
          read: 'internal = false and ticket.requester = me',
          create: 'internal = false and ticket.requester = me',
          update: false,
          delete: false,
        },
        attachment: {
          read: 'internal = false and ticket.requester = me',
          create: 'internal = false and ticket.requester = me',
          update: false,
          delete: 'uploadedBy = me and ticket.status in (new, open, pending)',
        },
        category: { read: 'active = true', create: false, update: false, delete: false },
        savedReply: { read: false, create: false, update: false, delete: false },
      },
      agent: {
        person: {
          read: true,
          create: false,
          update: { when: 'id = me', fields: ['name', 'organisation', 'phone'] },
          delete: false,
        },
        ticket: {
          read: true,
          create: true,
          update: {
            when: 'status != closed',
            fields: ['title', 'description', 'priority', 'category', 'assignee', 'dueAt'],
          },
          delete: false,
        },
        comment: {
          read: true,
          create: true,
          update: { when: 'author = me and internal = true', fields: ['body'] },
          delete: false,
        },
        attachment: { read: true, create: true, update: false, delete: 'uploadedBy = me' },
        category: { read: true, create: false, update: false, delete: false },
        savedReply: {
          read: 'shared = true or createdBy = me',
          create: true,
          update: { when: 'createdBy = me', fields: ['title', 'body', 'category', 'shared'] },
          delete: 'createdBy = me',
        },
      },
      admin: {
        person: {
          read: true,
          create: false,
          update: { when: true, fields: ['name', 'email', 'organisation', 'phone'] },
          delete: 'id != me',
        },
        ticket: {
          read: true,
          create: true,
          update: {
            when: true,
            fields: ['title', 'description', 'priority', 'category', 'assignee', 'dueAt'],
          },
          delete: true,
        },
        comment: {
          read: true,
          create: true,
          update: { when: true, fields: ['body', 'internal'] },
          delete: true,
        },
        attachment: { read: true, create: true, update: { when: true, fields: ['internal'] }, delete: true },
        category: {
          read: true,
          create: true,
          update: { when: true, fields: ['name', 'description', 'active', 'defaultAssignee'] },
          delete: true,
        },
        savedReply: {
          read: true,
          create: true,
          update: { when: true, fields: ['title', 'body', 'category', 'shared'] },
          delete: true,
        },
      },
    },
  },

  calls: {
    declared: {
      notifyRequester: {
        description:
          'E-mails the requester that their ticket was solved, with the resolution and how to reopen it.',
        method: 'POST',
        path: '/functions/v1/notify-email',
        service: 'notify-email',
        payload: { ticketId: 'uuid', to: 'email', subject: 'string', body: 'string' },
        response: { id: 'string', queued: 'boolean' },
        roles: ['agent'],
        error: 'NOTIFY_FAILED',
        // Filled by the database when a ticket is solved (`ticketId` is the ticket's id).
        fill: {
          to: 'requester.email',
          subject: 'Solved: {title}',
          body:
            'Hello {requester.name},\n\nyour ticket "{title}" was solved by {assignee.name}:\n\n{resolution}\n\n' +
            'If the problem is still there, reopen the ticket within {reopenWindowDays} days.',
        },
      },
    },
  },

  errors: {
    NAME_TOO_LONG: { message: 'Names may be at most {nameMaxLength} characters long.', severity: 'error' },
    EMAIL_INVALID: {
      message: 'Enter a valid e-mail address, like name@example.com.',
      severity: 'error',
      field: 'person.email',
    },
    PHONE_INVALID: {
      message: 'Enter a phone number with its country code, like +44 20 7946 0000.',
      severity: 'error',
      field: 'person.phone',
    },
    TITLE_TOO_SHORT: {
      message: 'Give the ticket a subject of at least {titleMinLength} characters.',
      severity: 'error',
      field: 'ticket.title',
    },
    TITLE_TOO_LONG: {
      message: 'Titles may be at most {titleMaxLength} characters long; put the details in the description.',
      severity: 'error',
    },
    DESCRIPTION_TOO_SHORT: {
      message: 'Describe the problem in at least {descriptionMinLength} characters so an agent can help.',
      severity: 'error',
      field: 'ticket.description',
    },
    DESCRIPTION_TOO_LONG: {
      message: 'Descriptions may be at most {descriptionMaxLength} characters; attach longer logs as files.',
      severity: 'error',
      field: 'ticket.description',
    },
    RESOLUTION_TOO_SHORT: {
      message: 'Explain the resolution in at least {resolutionMinLength} characters; the requester reads it.',
      severity: 'error',
      field: 'ticket.resolution',
    },
    COMMENT_TOO_LONG: {
      message: 'Messages may be at most {commentMaxLength} characters long.',
      severity: 'error',
    },
    ASSIGNEE_NOT_AGENT: {
      message: 'Tickets can only be assigned to agents.',
      severity: 'error',
      field: 'ticket.assignee',
    },
    CATEGORY_INACTIVE: {
      message: 'This category is no longer in use; choose another one.',
      severity: 'error',
      field: 'ticket.category',
    },
    DUE_AFTER_TARGET: {
      message: 'The due date is later than the resolution target for {priority} tickets.',
      severity: 'error',
      field: 'ticket.dueAt',
    },
    DUE_IN_PAST: {
      message: 'The due date has passed; choose a time from now on.',
      severity: 'error',
      field: 'ticket.dueAt',
    },
    ALREADY_RATED: {
      message: 'This solution is already rated; reopen the ticket if the problem is back.',
      severity: 'error',
    },
    RATING_BEFORE_SOLVED: {
      message: 'A ticket can be rated once it is solved.',
      severity: 'error',
      field: 'ticket.rating',
    },
    TICKET_CLOSED: {
      message: 'This ticket is closed; file a new ticket and mention this one.',
      severity: 'error',
    },
    ATTACHMENT_TOO_LARGE: {
      message: 'Attachments may be at most {maxAttachmentMb} MB.',
      severity: 'error',
    },
    TOO_MANY_ATTACHMENTS: {
      message:
        'A ticket may have at most {maxAttachmentsPerTicket} attachments, and agents as many internal ones.',
      severity: 'error',
    },
    REOPEN_WINDOW_PASSED: {
      message:
        'Solved tickets can be reopened within {reopenWindowDays} days; please file a new ticket instead.',
      severity: 'error',
    },
    NOT_ASSIGNEE: {
      message: 'Only the assigned agent or an administrator can do this.',
      severity: 'error',
    },
    NOT_REQUESTER: {
      message: 'Only the person who filed this ticket can do this.',
      severity: 'error',
    },
    NOTIFY_FAILED: {
      message: 'The ticket was solved, but the e-mail to the requester could not be sent.',
      severity: 'warning',
    },
  },

  constants: {
    reopenWindowDays: { value: 7, label: 'Days a solved ticket can be reopened', unit: 'days' },
    firstResponseHoursUrgent: { value: 1, label: 'First-response target, urgent tickets', unit: 'hours' },
    firstResponseHoursHigh: { value: 4, label: 'First-response target, high priority', unit: 'hours' },
    firstResponseHoursNormal: { value: 8, label: 'First-response target, normal priority', unit: 'hours' },
    firstResponseHoursLow: { value: 24, label: 'First-response target, low priority', unit: 'hours' },
    resolutionHoursUrgent: { value: 8, label: 'Resolution target, urgent tickets', unit: 'hours' },
    resolutionHoursHigh: { value: 24, label: 'Resolution target, high priority', unit: 'hours' },
    resolutionHoursNormal: { value: 72, label: 'Resolution target, normal priority', unit: 'hours' },
    resolutionHoursLow: { value: 168, label: 'Resolution target, low priority', unit: 'hours' },
    maxAttachmentMb: { value: 10, label: 'Largest attachment', unit: 'MB' },
    maxAttachmentsPerTicket: { value: 20, label: 'Most attachments on one ticket', unit: 'count' },
    titleMinLength: { value: 5, label: 'Shortest ticket subject', unit: 'count' },
    titleMaxLength: { value: 120, label: 'Longest ticket subject', unit: 'count' },
    descriptionMinLength: { value: 20, label: 'Shortest ticket description', unit: 'count' },
    descriptionMaxLength: { value: 10000, label: 'Longest ticket description', unit: 'count' },
    resolutionMinLength: { value: 10, label: 'Shortest resolution text', unit: 'count' },
    commentMaxLength: { value: 5000, label: 'Longest comment', unit: 'count' },
    nameMaxLength: { value: 100, label: 'Longest name', unit: 'count' },
  },

  translations: { de },
});
