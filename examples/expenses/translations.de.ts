/**
 * The expenses app in German: every text of `spec.ts` a person reads, keyed by its English text
 * (see docs/i18n.md). `ninefold check examples/expenses` reports a key that matches no text and
 * any text left untranslated.
 */
export const de: Record<string, string> = {
  Expenses: 'Spesen',
  "Expense claims for a small company. Employees collect what they spent on company business into a claim, one line per expense with a receipt for anything above a small amount, and submit it. The employee's manager approves the claim, returns it for changes or rejects it; nobody ever approves their own claim. Claims above a threshold also need the approval of finance, who then pay every approved claim and export it to the accounting system.":
    'Spesenabrechnungen für eine kleine Firma. Mitarbeitende sammeln, was sie geschäftlich ausgegeben haben, in einer Abrechnung, eine Position je Ausgabe mit Beleg für alles über einem kleinen Betrag, und reichen sie ein. Die Führungskraft genehmigt die Abrechnung, gibt sie zur Änderung zurück oder lehnt sie ab; niemand genehmigt je die eigene Abrechnung. Abrechnungen über einem Schwellenwert brauchen zusätzlich die Genehmigung der Buchhaltung, die dann jede genehmigte Abrechnung auszahlt und an die Finanzbuchhaltung exportiert.',
  Dashboard: 'Übersicht',
  'My claims': 'Meine Abrechnungen',
  'New claim': 'Neue Abrechnung',
  'Edit claim': 'Abrechnung bearbeiten',
  Claim: 'Abrechnung',
  'Expense line': 'Position',
  'Edit expense line': 'Position bearbeiten',
  'To approve': 'Zu genehmigen',
  'Finance queue': 'Buchhaltung: offen',
  'Claims board': 'Abrechnungs-Board',
  'Paid claims': 'Ausgezahlte Abrechnungen',
  Person: 'Person',
  People: 'Personen',
  Name: 'Name',
  'E-mail': 'E-Mail',
  Manager: 'Führungskraft',
  "Approves this person's expense claims.": 'Genehmigt die Spesenabrechnungen dieser Person.',
  Department: 'Abteilung',
  'Cost centre': 'Kostenstelle',
  'The accounting cost centre claims are booked to, e.g. CC-1040.':
    'Die Kostenstelle, auf die Abrechnungen gebucht werden, z. B. CC-1040.',
  'Employee number': 'Personalnummer',
  Claims: 'Abrechnungen',
  Title: 'Titel',
  'What the expenses were for, e.g. "Customer visit Lyon, March".':
    'Wofür die Ausgaben waren, z. B. „Kundenbesuch Lyon, März“.',
  'Business purpose': 'Geschäftlicher Zweck',
  'Why the company should pay for this.': 'Warum die Firma das bezahlen sollte.',
  Claimant: 'Antragsteller',
  Status: 'Status',
  Currency: 'Währung',
  'Every line of the claim is in this currency; it is paid in it.':
    'Jede Position der Abrechnung ist in dieser Währung; ausgezahlt wird in ihr.',
  EUR: 'EUR',
  USD: 'USD',
  GBP: 'GBP',
  CHF: 'CHF',
  SEK: 'SEK',
  Total: 'Summe',
  'The sum of the lines, fixed when the claim is submitted.':
    'Die Summe der Positionen, festgeschrieben beim Einreichen.',
  Submitted: 'Eingereicht',
  'Approved by (manager)': 'Genehmigt von (Führungskraft)',
  'Approved (manager)': 'Genehmigt (Führungskraft)',
  'Approved by (finance)': 'Genehmigt von (Buchhaltung)',
  'Approved (finance)': 'Genehmigt (Buchhaltung)',
  'Changes requested': 'Gewünschte Änderungen',
  'What the claimant must change before submitting again.':
    'Was der Antragsteller vor dem erneuten Einreichen ändern muss.',
  'Reason for rejection': 'Grund der Ablehnung',
  'Paid by': 'Ausgezahlt von',
  Paid: 'Ausgezahlt',
  'Payment reference': 'Zahlungsreferenz',
  'The bank transfer or payroll reference.': 'Die Referenz der Überweisung oder Gehaltsabrechnung.',
  'Expense lines': 'Positionen',
  'The person who made the claim; lines are only added by them.':
    'Die Person, die die Abrechnung erstellt hat; nur sie fügt Positionen hinzu.',
  Date: 'Datum',
  'When the money was spent.': 'Wann das Geld ausgegeben wurde.',
  Category: 'Kategorie',
  Travel: 'Reise',
  Lodging: 'Unterkunft',
  Meals: 'Verpflegung',
  Mileage: 'Kilometergeld',
  Office: 'Büro',
  Software: 'Software',
  Training: 'Weiterbildung',
  Other: 'Sonstiges',
  Description: 'Beschreibung',
  Merchant: 'Händler',
  'Who was paid: the hotel, airline, shop.': 'Wer bezahlt wurde: Hotel, Fluggesellschaft, Geschäft.',
  'Distance (km)': 'Strecke (km)',
  'For mileage: the distance driven in a private car.':
    'Für Kilometergeld: die mit dem Privatwagen gefahrene Strecke.',
  Amount: 'Betrag',
  "Must be the claim's currency.": 'Muss die Währung der Abrechnung sein.',
  Receipt: 'Beleg',
  Receipts: 'Belege',
  'Uploaded by': 'Hochgeladen von',
  Draft: 'Entwurf',
  'Being written by the claimant; nobody else sees it.':
    'Wird vom Antragsteller geschrieben; niemand sonst sieht sie.',
  'Awaiting manager': 'Wartet auf Führungskraft',
  "Waiting for the claimant's manager.": 'Wartet auf die Führungskraft des Antragstellers.',
  'Returned for changes': 'Zur Änderung zurückgegeben',
  'An approver asked for changes; the claimant edits and submits again.':
    'Eine genehmigende Person bat um Änderungen; der Antragsteller ändert und reicht erneut ein.',
  'Approved by manager': 'Von Führungskraft genehmigt',
  'Ready to pay, or, above the finance threshold, waiting for finance approval.':
    'Bereit zur Auszahlung oder, über dem Schwellenwert, wartet auf die Buchhaltung.',
  'Approved by finance': 'Von Buchhaltung genehmigt',
  'Ready to pay.': 'Bereit zur Auszahlung.',
  Rejected: 'Abgelehnt',
  'Will not be paid.': 'Wird nicht ausgezahlt.',
  'Paid out and exported to accounting.': 'Ausgezahlt und an die Finanzbuchhaltung exportiert.',
  Submit: 'Einreichen',
  Recall: 'Zurückholen',
  Approve: 'Genehmigen',
  'Approve (finance)': 'Genehmigen (Buchhaltung)',
  'Return for changes': 'Zur Änderung zurückgeben',
  Reject: 'Ablehnen',
  'Mark as paid': 'Als ausgezahlt markieren',
  Employee: 'Mitarbeiter',
  'Makes and submits expense claims.': 'Erstellt und reicht Spesenabrechnungen ein.',
  'Approves, returns or rejects the claims of the people who report to them.':
    'Genehmigt, gibt zurück oder lehnt die Abrechnungen der eigenen Mitarbeitenden ab.',
  Finance: 'Buchhaltung',
  'Approves claims above the threshold, pays approved claims and exports them.':
    'Genehmigt Abrechnungen über dem Schwellenwert, zahlt genehmigte aus und exportiert sie.',
  Administrator: 'Administrator',
  'Maintains people, reporting lines and roles; also an employee.':
    'Pflegt Personen, Vorgesetzte und Rollen; ist auch Mitarbeiter.',
  'Enter a valid e-mail address, like name@example.com.':
    'Geben Sie eine gültige E-Mail-Adresse ein, z. B. name@example.com.',
  'Cost centres look like CC-1040.': 'Kostenstellen sehen so aus: CC-1040.',
  'Nobody can be their own manager.': 'Niemand kann die eigene Führungskraft sein.',
  'Titles may be at most {titleMaxLength} characters long.':
    'Titel dürfen höchstens {titleMaxLength} Zeichen lang sein.',
  'A claim may total at most {maxClaimTotal}; split larger amounts over several claims.':
    'Eine Abrechnung darf höchstens {maxClaimTotal} betragen; verteilen Sie größere Beträge auf mehrere Abrechnungen.',
  'Tell the claimant why, in at least {reasonMinLength} characters.':
    'Sagen Sie dem Antragsteller in mindestens {reasonMinLength} Zeichen, warum.',
  'Add at least one expense line before submitting the claim.':
    'Fügen Sie vor dem Einreichen mindestens eine Position hinzu.',
  'Nobody may approve or pay their own claim.':
    'Niemand darf die eigene Abrechnung genehmigen oder auszahlen.',
  'The manager approval, the finance approval and the payment need different people.':
    'Genehmigung der Führungskraft, Genehmigung der Buchhaltung und Auszahlung brauchen verschiedene Personen.',
  'Only the person who made this claim can do this.':
    'Das kann nur die Person, die diese Abrechnung erstellt hat.',
  'You can approve only the claims of people who report to you.':
    'Sie können nur Abrechnungen Ihrer eigenen Mitarbeitenden genehmigen.',
  "Only the claimant's manager or finance can do this, and never on their own claim.":
    'Das kann nur die Führungskraft des Antragstellers oder die Buchhaltung, und nie bei der eigenen Abrechnung.',
  'Claims above the finance threshold of their currency (EUR {financeThresholdEUR}, USD {financeThresholdUSD}, GBP {financeThresholdGBP}, CHF {financeThresholdCHF}, SEK {financeThresholdSEK}) need finance approval before they are paid.':
    'Abrechnungen über der Buchhaltungsschwelle ihrer Währung (EUR {financeThresholdEUR}, USD {financeThresholdUSD}, GBP {financeThresholdGBP}, CHF {financeThresholdCHF}, SEK {financeThresholdSEK}) brauchen vor der Auszahlung die Genehmigung der Buchhaltung.',
  'Descriptions may be at most {descriptionMaxLength} characters long.':
    'Beschreibungen dürfen höchstens {descriptionMaxLength} Zeichen lang sein.',
  'The amount must be more than zero.': 'Der Betrag muss größer als null sein.',
  'One expense may be at most {maxLineAmount}; larger purchases go through purchasing.':
    'Eine Ausgabe darf höchstens {maxLineAmount} betragen; größere Käufe laufen über den Einkauf.',
  'The date cannot be in the future.': 'Das Datum darf nicht in der Zukunft liegen.',
  'Expenses must be claimed within {maxExpenseAgeDays} days.':
    'Ausgaben müssen innerhalb von {maxExpenseAgeDays} Tagen abgerechnet werden.',
  "Every line must be in the claim's currency; accepted currencies are {currencies}.":
    'Jede Position muss in der Währung der Abrechnung sein; erlaubte Währungen sind {currencies}.',
  'A claim may have at most {maxLinesPerClaim} lines; start a second claim.':
    'Eine Abrechnung darf höchstens {maxLinesPerClaim} Positionen haben; beginnen Sie eine zweite.',
  'A distance cannot be negative.': 'Eine Strecke kann nicht negativ sein.',
  'Enter the distance driven for mileage.': 'Geben Sie für Kilometergeld die gefahrene Strecke ein.',
  'Mileage is paid at most {mileageRatePerKm} per km.':
    'Kilometergeld wird mit höchstens {mileageRatePerKm} pro km erstattet.',
  'Expenses above {receiptRequiredAbove} need a receipt.':
    'Ausgaben über {receiptRequiredAbove} brauchen einen Beleg.',
  'Receipts may be at most {maxReceiptMb} MB; a photo or a PDF is enough.':
    'Belege dürfen höchstens {maxReceiptMb} MB groß sein; ein Foto oder ein PDF genügt.',
  'The receipt must belong to a line of the same claim.':
    'Der Beleg muss zu einer Position derselben Abrechnung gehören.',
  'One line may have at most {maxReceiptsPerLine} receipts.':
    'Eine Position darf höchstens {maxReceiptsPerLine} Belege haben.',
  'The claim is paid, but it could not be exported to accounting; export it again later.':
    'Die Abrechnung ist ausgezahlt, konnte aber nicht an die Finanzbuchhaltung exportiert werden; exportieren Sie sie später erneut.',
  'Accepted currencies': 'Erlaubte Währungen',
  'Claim total above which finance must approve too (EUR)':
    'Abrechnungssumme, ab der auch die Buchhaltung genehmigen muss (EUR)',
  'Claim total above which finance must approve too (USD)':
    'Abrechnungssumme, ab der auch die Buchhaltung genehmigen muss (USD)',
  'Claim total above which finance must approve too (GBP)':
    'Abrechnungssumme, ab der auch die Buchhaltung genehmigen muss (GBP)',
  'Claim total above which finance must approve too (CHF)':
    'Abrechnungssumme, ab der auch die Buchhaltung genehmigen muss (CHF)',
  'Claim total above which finance must approve too (SEK)':
    'Abrechnungssumme, ab der auch die Buchhaltung genehmigen muss (SEK)',
  'Line amount above which a receipt is required': 'Positionsbetrag, ab dem ein Beleg nötig ist',
  'Largest single expense': 'Größte einzelne Ausgabe',
  'Largest claim total': 'Größte Abrechnungssumme',
  'Most lines on one claim': 'Meiste Positionen in einer Abrechnung',
  'Most receipts on one line': 'Meiste Belege an einer Position',
  'Largest receipt file': 'Größte Belegdatei',
  'Days within which an expense must be claimed':
    'Tage, innerhalb derer eine Ausgabe abgerechnet werden muss',
  'Mileage allowance per km': 'Kilometergeld pro km',
  'Longest claim title': 'Längster Abrechnungstitel',
  'Longest line description': 'Längste Positionsbeschreibung',
  'Shortest reason for returning or rejecting': 'Kürzeste Begründung für Rückgabe oder Ablehnung',
};
