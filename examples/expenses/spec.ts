import { defineApp } from 'ninefold';
import { de } from './translations.de.ts';

/** The currencies claims may be made in; shared by the constant and the enum fields. */
const currencies = ['EUR', 'USD', 'GBP', 'CHF', 'SEK'] as const;

/**
 * Expenses: a small company's expense approval flow. Employees submit claims with line items
 * and receipts, their manager approves, finance approves claims above a threshold and pays.
 */
export default defineApp({
  purpose: {
    name: 'Expenses',
    summary:
      'Expense claims for a small company. Employees collect what they spent on company business into ' +
      'a claim, one line per expense with a receipt for anything above a small amount, and submit it. ' +
      "The employee's manager approves the claim, returns it for changes or rejects it; nobody ever " +
      'approves their own claim. Claims above a threshold also need the approval of finance, who then ' +
      'pay every approved claim and export it to the accounting system.',
    users: [
      'Employees, who make and submit expense claims',
      'Managers, who approve the claims of the people who report to them',
      'Finance, who approve large claims, pay approved claims and export them to accounting',
      'Administrators, who maintain people, reporting lines and roles',
    ],
  },

  screens: {
    dashboard: {
      route: '/',
      kind: 'dashboard',
      title: 'Dashboard',
      shows:
        'My claims by status and what waits for me: claims to approve for managers, claims to approve ' +
        'or pay for finance.',
      entity: 'claim',
      nav: ['employee'],
    },
    myClaims: {
      route: '/claims',
      kind: 'list',
      title: 'My claims',
      shows: 'The claims I made, newest first.',
      entity: 'claim',
      nav: ['employee'],
      columns: ['title', 'status', 'total', 'currency', 'submittedAt', 'paidAt'],
      filters: ['status', 'currency'],
      sort: '-createdAt',
      where: 'submitter = me',
    },
    newClaim: {
      route: '/claims/new',
      kind: 'form',
      title: 'New claim',
      shows: 'Starts a draft claim; lines and receipts are added on the claim page.',
      entity: 'claim',
      nav: ['employee'],
      fields: ['title', 'purpose', 'currency'],
    },
    editClaim: {
      route: '/claims/:id/edit',
      kind: 'form',
      title: 'Edit claim',
      shows: 'Changes the title, purpose or currency of a draft or returned claim.',
      entity: 'claim',
      fields: ['title', 'purpose', 'currency'],
    },
    claim: {
      route: '/claims/:id',
      kind: 'detail',
      title: 'Claim',
      shows:
        'One claim: its lines, their receipts, the approval history and the actions the user may take ' +
        '(submit, approve, return, reject, pay).',
      entity: 'claim',
      related: ['line.claim', 'receipt.claim'],
    },
    editLine: {
      route: '/lines/:id/edit',
      kind: 'form',
      title: 'Edit expense line',
      shows: 'Corrects one line of a draft or returned claim: date, category, amount and the rest.',
      entity: 'line',
      fields: ['date', 'category', 'description', 'merchant', 'distanceKm', 'amount', 'currency'],
    },
    line: {
      route: '/lines/:id',
      kind: 'detail',
      title: 'Expense line',
      shows: 'One expense line and its receipts.',
      entity: 'line',
      related: ['receipt.line'],
    },
    approvals: {
      route: '/approvals',
      kind: 'list',
      title: 'To approve',
      shows: 'Submitted claims of the people who report to me, oldest first.',
      entity: 'claim',
      nav: ['manager'],
      columns: ['title', 'submitter', 'total', 'currency', 'submittedAt'],
      filters: ['currency'],
      sort: 'submittedAt',
      where: 'status = submitted and submitter.manager = me',
    },
    finance: {
      route: '/finance',
      kind: 'list',
      title: 'Finance queue',
      shows:
        'Claims approved by a manager: those above the threshold wait for finance approval, the others ' +
        'for payment.',
      entity: 'claim',
      nav: ['finance'],
      columns: ['title', 'submitter', 'status', 'total', 'currency', 'approvedBy', 'approvedAt'],
      filters: ['status', 'currency'],
      sort: 'approvedAt',
      where: 'status in (approved, finance_approved)',
    },
    board: {
      route: '/board',
      kind: 'board',
      title: 'Claims board',
      shows: 'Every claim past draft in one column per status; moving a card runs the transition.',
      entity: 'claim',
      nav: ['finance'],
      columns: ['title', 'submitter', 'total'],
      filters: ['currency'],
      where: 'status != draft',
    },
    paid: {
      route: '/finance/paid',
      kind: 'list',
      title: 'Paid claims',
      shows: 'Claims paid, most recent first, with their payment reference.',
      entity: 'claim',
      nav: ['finance'],
      columns: ['title', 'submitter', 'total', 'currency', 'paidAt', 'paymentReference'],
      filters: ['currency', 'submitter'],
      sort: '-paidAt',
      where: 'status = paid',
    },
    person: {
      route: '/people/:id',
      kind: 'detail',
      title: 'Person',
      shows: 'One person, their manager and the claims they made.',
      entity: 'person',
      related: ['claim.submitter'],
    },
    people: {
      route: '/admin/people',
      kind: 'admin',
      title: 'People',
      shows: 'Everyone in the company, their manager (who approves their claims) and their roles.',
      entity: 'person',
      nav: ['admin'],
      columns: ['name', 'email', 'manager', 'department', 'costCentre'],
      filters: ['department', 'manager'],
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
        email: { type: 'email', label: 'E-mail', required: true, unique: true, list: true },
        manager: {
          type: 'user',
          label: 'Manager',
          help: "Approves this person's expense claims.",
          onDelete: 'set null',
          list: true,
        },
        department: { type: 'text', label: 'Department', list: true },
        costCentre: {
          type: 'text',
          label: 'Cost centre',
          help: 'The accounting cost centre claims are booked to, e.g. CC-1040.',
          search: false,
        },
        employeeNumber: { type: 'text', label: 'Employee number', unique: true, search: false },
      },
    },
    claim: {
      label: 'Claim',
      plural: 'Claims',
      title: 'title',
      live: true,
      fields: {
        title: {
          audited: true,
          type: 'text',
          label: 'Title',
          help: 'What the expenses were for, e.g. "Customer visit Lyon, March".',
          required: true,
          list: true,
        },
        purpose: {
          audited: true,
          type: 'longtext',
          label: 'Business purpose',
          help: 'Why the company should pay for this.',
        },
        submitter: { type: 'user', label: 'Claimant', owner: true, onDelete: 'restrict', list: true },
        status: { type: 'status', label: 'Status', required: true, list: true },
        currency: {
          audited: true,
          type: 'enum',
          label: 'Currency',
          help: 'Every line of the claim is in this currency; it is paid in it.',
          values: currencies,
          default: 'EUR',
          required: true,
          list: true,
        },
        total: {
          type: 'money',
          label: 'Total',
          help: 'The sum of the lines, fixed when the claim is submitted.',
          currencyField: 'currency',
          default: 0,
          list: true,
        },
        submittedAt: { type: 'datetime', label: 'Submitted', list: true },
        approvedBy: { type: 'user', label: 'Approved by (manager)', onDelete: 'restrict' },
        approvedAt: { type: 'datetime', label: 'Approved (manager)' },
        financeApprovedBy: { type: 'user', label: 'Approved by (finance)', onDelete: 'restrict' },
        financeApprovedAt: { type: 'datetime', label: 'Approved (finance)' },
        returnReason: {
          type: 'longtext',
          label: 'Changes requested',
          help: 'What the claimant must change before submitting again.',
        },
        rejectionReason: { type: 'longtext', label: 'Reason for rejection' },
        paidBy: { type: 'user', label: 'Paid by', onDelete: 'restrict' },
        paidAt: { type: 'datetime', label: 'Paid', list: true },
        paymentReference: {
          type: 'text',
          label: 'Payment reference',
          help: 'The bank transfer or payroll reference.',
        },
      },
    },
    line: {
      label: 'Expense line',
      plural: 'Expense lines',
      title: 'description',
      fields: {
        claim: {
          audited: true,
          type: 'ref',
          ref: 'claim',
          label: 'Claim',
          required: true,
          onDelete: 'cascade',
        },
        submitter: {
          type: 'user',
          label: 'Claimant',
          help: 'The person who made the claim; lines are only added by them.',
          owner: true,
          onDelete: 'restrict',
        },
        date: { type: 'date', label: 'Date', help: 'When the money was spent.', required: true, list: true },
        category: {
          type: 'enum',
          label: 'Category',
          values: ['travel', 'lodging', 'meals', 'mileage', 'office', 'software', 'training', 'other'],
          required: true,
          list: true,
        },
        description: { type: 'text', label: 'Description', required: true, list: true },
        merchant: { type: 'text', label: 'Merchant', help: 'Who was paid: the hotel, airline, shop.' },
        distanceKm: {
          type: 'number',
          label: 'Distance (km)',
          help: 'For mileage: the distance driven in a private car.',
        },
        amount: {
          type: 'money',
          label: 'Amount',
          currencyField: 'currency',
          required: true,
          list: true,
        },
        currency: {
          type: 'enum',
          label: 'Currency',
          help: "Must be the claim's currency.",
          values: currencies,
          default: 'EUR',
          required: true,
          list: true,
        },
      },
    },
    receipt: {
      label: 'Receipt',
      plural: 'Receipts',
      files: true,
      fields: {
        claim: {
          audited: true,
          type: 'ref',
          ref: 'claim',
          label: 'Claim',
          required: true,
          onDelete: 'cascade',
        },
        line: {
          type: 'ref',
          ref: 'line',
          label: 'Expense line',
          required: true,
          onDelete: 'cascade',
          list: true,
        },
        uploadedBy: { type: 'user', label: 'Uploaded by', owner: true, onDelete: 'restrict', list: true },
      },
    },
  },

  states: {
    claim: {
      field: 'status',
      initial: 'draft',
      states: {
        draft: {
          label: 'Draft',
          description: 'Being written by the claimant; nobody else sees it.',
          waitingOn: 'submitter = me',
        },
        submitted: {
          label: 'Awaiting manager',
          description: "Waiting for the claimant's manager.",
          waitingOn: 'submitter.manager = me',
        },
        returned: {
          label: 'Returned for changes',
          description: 'An approver asked for changes; the claimant edits and submits again.',
          waitingOn: 'submitter = me',
        },
        approved: {
          label: 'Approved by manager',
          description: 'Ready to pay, or, above the finance threshold, waiting for finance approval.',
          waitingOn: 'me is finance',
        },
        finance_approved: {
          label: 'Approved by finance',
          description: 'Ready to pay.',
          waitingOn: 'me is finance',
        },
        rejected: { label: 'Rejected', final: true, description: 'Will not be paid.' },
        paid: { label: 'Paid', final: true, description: 'Paid out and exported to accounting.' },
      },
      transitions: {
        submit: {
          label: 'Submit',
          from: ['draft', 'returned'],
          to: 'submitted',
          roles: ['employee'],
          guard: 'submitter = me',
          guardError: 'NOT_SUBMITTER',
          set: { submittedAt: 'now', total: 'sum(line.amount where claim = this)' },
        },
        recall: {
          label: 'Recall',
          from: ['submitted'],
          to: 'draft',
          roles: ['employee'],
          guard: 'submitter = me',
          guardError: 'NOT_SUBMITTER',
          set: { submittedAt: 'null' },
        },
        approve: {
          label: 'Approve',
          from: ['submitted'],
          to: 'approved',
          roles: ['manager'],
          guard: 'submitter.manager = me',
          guardError: 'NOT_YOUR_REPORT',
          set: { approvedBy: 'me', approvedAt: 'now' },
        },
        finance_approve: {
          label: 'Approve (finance)',
          from: ['approved'],
          to: 'finance_approved',
          roles: ['finance'],
          guard: 'submitter != me',
          guardError: 'SELF_APPROVAL',
          set: { financeApprovedBy: 'me', financeApprovedAt: 'now' },
        },
        send_back: {
          label: 'Return for changes',
          from: ['submitted', 'approved', 'finance_approved'],
          to: 'returned',
          roles: ['manager', 'finance'],
          guard: 'submitter != me and (submitter.manager = me or me is finance)',
          guardError: 'NOT_APPROVER',
          input: ['returnReason'],
          set: {
            approvedBy: 'null',
            approvedAt: 'null',
            financeApprovedBy: 'null',
            financeApprovedAt: 'null',
          },
        },
        reject: {
          label: 'Reject',
          from: ['submitted', 'approved', 'finance_approved'],
          to: 'rejected',
          roles: ['manager', 'finance'],
          guard: 'submitter != me and (submitter.manager = me or me is finance)',
          guardError: 'NOT_APPROVER',
          input: ['rejectionReason'],
          confirm: true,
        },
        pay: {
          label: 'Mark as paid',
          from: ['approved', 'finance_approved'],
          to: 'paid',
          roles: ['finance'],
          // One threshold per currency: the total is compared in the claim's own currency, never a
          // USD or SEK total against a EUR figure (docs/security.md, finding 12).
          guard:
            'financeApprovedBy is not empty or ' +
            '(currency = EUR and total <= financeThresholdEUR) or (currency = USD and total <= financeThresholdUSD) or ' +
            '(currency = GBP and total <= financeThresholdGBP) or (currency = CHF and total <= financeThresholdCHF) or ' +
            '(currency = SEK and total <= financeThresholdSEK)',
          guardError: 'FINANCE_APPROVAL_REQUIRED',
          input: ['paymentReference'],
          set: { paidAt: 'now', paidBy: 'me' },
          confirm: true,
          calls: ['exportJournalEntry'],
        },
      },
    },
  },

  validation: {
    person: [
      { kind: 'field', field: 'email', format: 'email', error: 'EMAIL_INVALID' },
      { kind: 'field', field: 'costCentre', pattern: '^CC-[0-9]{4}$', error: 'COST_CENTRE_INVALID' },
      { kind: 'row', rule: 'manager is empty or manager != id', field: 'manager', error: 'MANAGER_SELF' },
    ],
    claim: [
      { kind: 'field', field: 'title', maxLength: 'titleMaxLength', error: 'TITLE_TOO_LONG' },
      { kind: 'field', field: 'total', max: 'maxClaimTotal', error: 'CLAIM_TOTAL_TOO_HIGH' },
      { kind: 'field', field: 'returnReason', minLength: 'reasonMinLength', error: 'REASON_TOO_SHORT' },
      { kind: 'field', field: 'rejectionReason', minLength: 'reasonMinLength', error: 'REASON_TOO_SHORT' },
      {
        kind: 'row',
        rule: 'count(line where claim = this) >= 1',
        when: 'status not in (draft, returned)',
        error: 'CLAIM_EMPTY',
      },
      {
        kind: 'row',
        rule: 'approvedBy != submitter',
        when: 'approvedBy is not empty',
        field: 'approvedBy',
        error: 'SELF_APPROVAL',
      },
      {
        kind: 'row',
        rule: 'financeApprovedBy != submitter',
        when: 'financeApprovedBy is not empty',
        field: 'financeApprovedBy',
        error: 'SELF_APPROVAL',
      },
      { kind: 'row', rule: 'paidBy != submitter', when: 'paidBy is not empty', error: 'SELF_APPROVAL' },
      // Separation of duties: one person holding manager and finance roles never approves twice or
      // approves and pays the same claim alone.
      {
        kind: 'row',
        rule: 'financeApprovedBy != approvedBy',
        when: 'financeApprovedBy is not empty and approvedBy is not empty',
        error: 'DUTIES_NOT_SEPARATED',
      },
      {
        kind: 'row',
        rule: 'paidBy != approvedBy and (financeApprovedBy is empty or paidBy != financeApprovedBy)',
        when: 'paidBy is not empty and approvedBy is not empty',
        error: 'DUTIES_NOT_SEPARATED',
      },
    ],
    line: [
      {
        kind: 'field',
        field: 'description',
        maxLength: 'descriptionMaxLength',
        error: 'DESCRIPTION_TOO_LONG',
      },
      { kind: 'field', field: 'amount', min: 0.01, error: 'AMOUNT_NOT_POSITIVE' },
      { kind: 'field', field: 'amount', max: 'maxLineAmount', error: 'LINE_AMOUNT_TOO_HIGH' },
      { kind: 'row', rule: 'date <= today', field: 'date', error: 'DATE_IN_FUTURE' },
      {
        kind: 'row',
        rule: 'date >= today - days(maxExpenseAgeDays)',
        field: 'date',
        error: 'EXPENSE_TOO_OLD',
      },
      { kind: 'row', rule: 'currency = claim.currency', field: 'currency', error: 'CURRENCY_MISMATCH' },
      {
        // On the line row, after the write: the claim's lines, this one included.
        kind: 'row',
        rule: 'count(line where claim = this.claim) <= maxLinesPerClaim',
        error: 'TOO_MANY_LINES',
      },
      {
        kind: 'row',
        rule: 'distanceKm > 0',
        when: 'category = mileage',
        field: 'distanceKm',
        error: 'MILEAGE_DISTANCE_REQUIRED',
      },
      {
        kind: 'row',
        rule: 'amount <= distanceKm * mileageRatePerKm',
        when: 'category = mileage',
        field: 'amount',
        error: 'MILEAGE_RATE_EXCEEDED',
      },
      {
        // Receipts are uploaded after the line exists, so the rule binds once the claim leaves the
        // claimant's hands (submit); it is re-checked when a receipt or the claim changes.
        kind: 'row',
        rule: 'count(receipt where line = this) >= 1',
        when: 'amount > receiptRequiredAbove and claim.status not in (draft, returned)',
        field: 'amount',
        error: 'RECEIPT_REQUIRED',
      },
      // A distance is never negative, whatever the category (mileage also needs it above zero).
      { kind: 'field', field: 'distanceKm', min: 0, error: 'DISTANCE_NEGATIVE' },
    ],
    receipt: [
      { kind: 'row', rule: 'size <= maxReceiptMb * 1048576', error: 'RECEIPT_TOO_LARGE' },
      { kind: 'row', rule: 'line.claim = claim', field: 'line', error: 'RECEIPT_LINE_MISMATCH' },
      {
        kind: 'row',
        rule: 'count(receipt where line = this.line) <= maxReceiptsPerLine',
        error: 'TOO_MANY_RECEIPTS',
      },
    ],
  },

  roles: {
    roles: {
      employee: { label: 'Employee', description: 'Makes and submits expense claims.', signup: true },
      manager: {
        label: 'Manager',
        description: 'Approves, returns or rejects the claims of the people who report to them.',
        inherits: ['employee'],
      },
      finance: {
        label: 'Finance',
        description: 'Approves claims above the threshold, pays approved claims and exports them.',
        inherits: ['employee'],
      },
      admin: {
        label: 'Administrator',
        description: 'Maintains people, reporting lines and roles; also an employee.',
        inherits: ['employee'],
      },
    },
    permissions: {
      employee: {
        person: {
          // Oneself, one's manager (who approves) and finance (who approve and pay): the names on
          // one's own claims. Managers also read their reports, finance and admins everyone.
          read: 'id = me or id = me.manager or id is finance',
          create: false,
          update: { when: 'id = me', fields: ['name'] },
          delete: false,
        },
        claim: {
          read: 'submitter = me',
          create: true,
          update: {
            when: 'submitter = me and status in (draft, returned)',
            fields: ['title', 'purpose', 'currency'],
          },
          delete: 'submitter = me and status = draft',
        },
        line: {
          read: 'submitter = me',
          create: 'claim.submitter = me and claim.status in (draft, returned)',
          update: {
            when: 'submitter = me and claim.status in (draft, returned)',
            fields: ['date', 'category', 'description', 'merchant', 'distanceKm', 'amount', 'currency'],
          },
          delete: 'submitter = me and claim.status in (draft, returned)',
        },
        receipt: {
          read: 'uploadedBy = me',
          create: 'claim.submitter = me and claim.status in (draft, returned)',
          update: false,
          delete: 'uploadedBy = me and claim.status in (draft, returned)',
        },
      },
      manager: {
        person: {
          read: 'manager = me',
          create: false,
          update: { when: 'id = me', fields: ['name'] },
          delete: false,
        },
        claim: {
          read: 'submitter = me or (submitter.manager = me and status != draft)',
          create: true,
          update: {
            when: 'submitter = me and status in (draft, returned)',
            fields: ['title', 'purpose', 'currency'],
          },
          delete: 'submitter = me and status = draft',
        },
        line: {
          read: 'submitter = me or (submitter.manager = me and claim.status != draft)',
          create: 'claim.submitter = me and claim.status in (draft, returned)',
          update: {
            when: 'submitter = me and claim.status in (draft, returned)',
            fields: ['date', 'category', 'description', 'merchant', 'distanceKm', 'amount', 'currency'],
          },
          delete: 'submitter = me and claim.status in (draft, returned)',
        },
        receipt: {
          read: 'uploadedBy = me or (uploadedBy.manager = me and claim.status != draft)',
          create: 'claim.submitter = me and claim.status in (draft, returned)',
          update: false,
          delete: 'uploadedBy = me and claim.status in (draft, returned)',
        },
      },
      finance: {
        person: { read: true, create: false, update: { when: 'id = me', fields: ['name'] }, delete: false },
        claim: {
          read: 'submitter = me or status != draft',
          create: true,
          update: {
            when: 'submitter = me and status in (draft, returned)',
            fields: ['title', 'purpose', 'currency'],
          },
          delete: 'submitter = me and status = draft',
        },
        line: {
          read: 'submitter = me or claim.status != draft',
          create: 'claim.submitter = me and claim.status in (draft, returned)',
          update: {
            when: 'submitter = me and claim.status in (draft, returned)',
            fields: ['date', 'category', 'description', 'merchant', 'distanceKm', 'amount', 'currency'],
          },
          delete: 'submitter = me and claim.status in (draft, returned)',
        },
        receipt: {
          read: 'uploadedBy = me or claim.status != draft',
          create: 'claim.submitter = me and claim.status in (draft, returned)',
          update: false,
          delete: 'uploadedBy = me and claim.status in (draft, returned)',
        },
      },
      admin: {
        person: {
          read: true,
          create: false,
          update: {
            when: true,
            fields: ['name', 'email', 'manager', 'department', 'costCentre', 'employeeNumber'],
          },
          delete: 'id != me',
        },
        claim: {
          read: true,
          create: true,
          update: {
            when: 'submitter = me and status in (draft, returned)',
            fields: ['title', 'purpose', 'currency'],
          },
          delete: 'status in (draft, rejected)',
        },
        line: {
          read: true,
          create: 'claim.submitter = me and claim.status in (draft, returned)',
          update: {
            when: 'submitter = me and claim.status in (draft, returned)',
            fields: ['date', 'category', 'description', 'merchant', 'distanceKm', 'amount', 'currency'],
          },
          delete: 'submitter = me and claim.status in (draft, returned)',
        },
        receipt: {
          read: true,
          create: 'claim.submitter = me and claim.status in (draft, returned)',
          update: false,
          delete: 'uploadedBy = me and claim.status in (draft, returned)',
        },
      },
    },
  },

  calls: {
    declared: {
      exportJournalEntry: {
        description:
          'Posts a paid claim to the accounting system as one journal entry, one posting per line, ' +
          "booked to the claimant's cost centre.",
        method: 'POST',
        path: '/v1/journal-entries',
        service: 'accounting',
        payload: {
          claimId: 'uuid',
          reference: 'string',
          employeeEmail: 'email',
          'costCentre?': 'string',
          currency: 'string',
          total: 'number',
          paidAt: 'datetime',
          lines: [{ date: 'string', category: 'string', description: 'string', amount: 'number' }],
        },
        response: { entryId: 'string', postedAt: 'datetime', 'warnings?': ['string'] },
        roles: ['finance'],
        error: 'EXPORT_FAILED',
        // Filled by the database when a claim is paid (`claimId`, `currency`, `total` and `paidAt`
        // from the claim; each line's `date`, `category`, `description` and `amount` from the line).
        fill: {
          reference: 'paymentReference',
          employeeEmail: 'submitter.email',
          costCentre: 'submitter.costCentre',
          lines: { rows: 'line' },
        },
      },
    },
  },

  errors: {
    EMAIL_INVALID: {
      message: 'Enter a valid e-mail address, like name@example.com.',
      severity: 'error',
      field: 'person.email',
    },
    COST_CENTRE_INVALID: {
      message: 'Cost centres look like CC-1040.',
      severity: 'error',
      field: 'person.costCentre',
    },
    MANAGER_SELF: {
      message: 'Nobody can be their own manager.',
      severity: 'error',
      field: 'person.manager',
    },
    TITLE_TOO_LONG: {
      message: 'Titles may be at most {titleMaxLength} characters long.',
      severity: 'error',
      field: 'claim.title',
    },
    CLAIM_TOTAL_TOO_HIGH: {
      message: 'A claim may total at most {maxClaimTotal}; split larger amounts over several claims.',
      severity: 'error',
      field: 'claim.total',
    },
    REASON_TOO_SHORT: {
      message: 'Tell the claimant why, in at least {reasonMinLength} characters.',
      severity: 'error',
    },
    CLAIM_EMPTY: {
      message: 'Add at least one expense line before submitting the claim.',
      severity: 'error',
    },
    SELF_APPROVAL: {
      message: 'Nobody may approve or pay their own claim.',
      severity: 'error',
    },
    DUTIES_NOT_SEPARATED: {
      message: 'The manager approval, the finance approval and the payment need different people.',
      severity: 'error',
    },
    NOT_SUBMITTER: {
      message: 'Only the person who made this claim can do this.',
      severity: 'error',
    },
    NOT_YOUR_REPORT: {
      message: 'You can approve only the claims of people who report to you.',
      severity: 'error',
    },
    NOT_APPROVER: {
      message: "Only the claimant's manager or finance can do this, and never on their own claim.",
      severity: 'error',
    },
    FINANCE_APPROVAL_REQUIRED: {
      message:
        'Claims above the finance threshold of their currency (EUR {financeThresholdEUR}, USD {financeThresholdUSD}, ' +
        'GBP {financeThresholdGBP}, CHF {financeThresholdCHF}, SEK {financeThresholdSEK}) need finance approval before they are paid.',
      severity: 'error',
    },
    DESCRIPTION_TOO_LONG: {
      message: 'Descriptions may be at most {descriptionMaxLength} characters long.',
      severity: 'error',
      field: 'line.description',
    },
    AMOUNT_NOT_POSITIVE: {
      message: 'The amount must be more than zero.',
      severity: 'error',
      field: 'line.amount',
    },
    LINE_AMOUNT_TOO_HIGH: {
      message: 'One expense may be at most {maxLineAmount}; larger purchases go through purchasing.',
      severity: 'error',
      field: 'line.amount',
    },
    DATE_IN_FUTURE: {
      message: 'The date cannot be in the future.',
      severity: 'error',
      field: 'line.date',
    },
    EXPENSE_TOO_OLD: {
      message: 'Expenses must be claimed within {maxExpenseAgeDays} days.',
      severity: 'error',
      field: 'line.date',
    },
    CURRENCY_MISMATCH: {
      message: "Every line must be in the claim's currency; accepted currencies are {currencies}.",
      severity: 'error',
      field: 'line.currency',
    },
    TOO_MANY_LINES: {
      message: 'A claim may have at most {maxLinesPerClaim} lines; start a second claim.',
      severity: 'error',
    },
    DISTANCE_NEGATIVE: {
      message: 'A distance cannot be negative.',
      severity: 'error',
      field: 'line.distanceKm',
    },
    MILEAGE_DISTANCE_REQUIRED: {
      message: 'Enter the distance driven for mileage.',
      severity: 'error',
      field: 'line.distanceKm',
    },
    MILEAGE_RATE_EXCEEDED: {
      message: 'Mileage is paid at most {mileageRatePerKm} per km.',
      severity: 'error',
      field: 'line.amount',
    },
    RECEIPT_REQUIRED: {
      message: 'Expenses above {receiptRequiredAbove} need a receipt.',
      severity: 'error',
      field: 'line.amount',
    },
    RECEIPT_TOO_LARGE: {
      message: 'Receipts may be at most {maxReceiptMb} MB; a photo or a PDF is enough.',
      severity: 'error',
    },
    RECEIPT_LINE_MISMATCH: {
      message: 'The receipt must belong to a line of the same claim.',
      severity: 'error',
      field: 'receipt.line',
    },
    TOO_MANY_RECEIPTS: {
      message: 'One line may have at most {maxReceiptsPerLine} receipts.',
      severity: 'error',
    },
    EXPORT_FAILED: {
      message: 'The claim is paid, but it could not be exported to accounting; export it again later.',
      severity: 'warning',
    },
  },

  constants: {
    currencies: { value: currencies, label: 'Accepted currencies' },
    // The finance threshold in each accepted currency (a claim is compared in its own currency).
    financeThresholdEUR: {
      value: 1000,
      label: 'Claim total above which finance must approve too (EUR)',
      unit: 'EUR',
    },
    financeThresholdUSD: {
      value: 1100,
      label: 'Claim total above which finance must approve too (USD)',
      unit: 'USD',
    },
    financeThresholdGBP: {
      value: 850,
      label: 'Claim total above which finance must approve too (GBP)',
      unit: 'GBP',
    },
    financeThresholdCHF: {
      value: 950,
      label: 'Claim total above which finance must approve too (CHF)',
      unit: 'CHF',
    },
    financeThresholdSEK: {
      value: 11500,
      label: 'Claim total above which finance must approve too (SEK)',
      unit: 'SEK',
    },
    receiptRequiredAbove: { value: 25, label: 'Line amount above which a receipt is required', unit: 'EUR' },
    maxLineAmount: { value: 5000, label: 'Largest single expense', unit: 'EUR' },
    maxClaimTotal: { value: 20000, label: 'Largest claim total', unit: 'EUR' },
    maxLinesPerClaim: { value: 50, label: 'Most lines on one claim', unit: 'count' },
    maxReceiptsPerLine: { value: 5, label: 'Most receipts on one line', unit: 'count' },
    maxReceiptMb: { value: 10, label: 'Largest receipt file', unit: 'MB' },
    maxExpenseAgeDays: { value: 90, label: 'Days within which an expense must be claimed', unit: 'days' },
    mileageRatePerKm: { value: 0.3, label: 'Mileage allowance per km', unit: 'EUR' },
    titleMaxLength: { value: 100, label: 'Longest claim title', unit: 'count' },
    descriptionMaxLength: { value: 200, label: 'Longest line description', unit: 'count' },
    reasonMinLength: { value: 10, label: 'Shortest reason for returning or rejecting', unit: 'count' },
  },

  translations: { de },
});
