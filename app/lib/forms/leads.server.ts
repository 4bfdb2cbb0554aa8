import type { AppLoadContext } from "react-router";
import { insertCareerApplication, insertDemoRequest, insertSalesLead } from "~/lib/db/leads.server";
import { careerApplicationMessages, contactSalesMessages, demoRequestMessages } from "./outcomes";
import { careerApplicationSchema, contactSalesSchema, demoRequestSchema } from "./schemas";
import { submitForm } from "./submit.server";

// The three lead forms' actions: each one is the shared pipeline with its schema, texts and table.

type ActionInput = { request: Request; context: AppLoadContext };

export function submitContactSales({ request, context }: ActionInput) {
  return submitForm({
    request,
    context,
    form: "contact-sales",
    schema: contactSalesSchema,
    messages: contactSalesMessages,
    save: (db, values, tracking) => insertSalesLead(db, { ...values, ...tracking }),
  });
}

export function submitDemoRequest({ request, context }: ActionInput) {
  return submitForm({
    request,
    context,
    form: "request-demo",
    schema: demoRequestSchema,
    messages: demoRequestMessages,
    save: (db, values, tracking) => insertDemoRequest(db, { ...values, ...tracking }),
  });
}

export function submitCareerApplication({ request, context }: ActionInput) {
  return submitForm({
    request,
    context,
    form: "career-application",
    schema: careerApplicationSchema,
    messages: careerApplicationMessages,
    save: (db, values, tracking) => insertCareerApplication(db, { ...values, ...tracking }),
  });
}
