"""A real OpenID Connect provider for the project's tests of issue 33 ("Sign in with an identity provider").

The Swift tests start it as a subprocess (`python provider.py --config CONFIG.json`) so that the
service signs people in against a provider built on a maintained library (Authlib's authorization
server with its OpenID Connect code flow and PKCE extensions, keys and JWTs through joserfc), not a
mock of our own. It keeps its state in memory: clients, users and keys come from the config file.
"""

import argparse
import hmac
import json
import signal
import sys
import threading
import time
from html import escape
from urllib.parse import urlsplit

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import ClientMixin, InvalidRequestError, TokenMixin, grants
from authlib.oauth2.rfc6750 import BearerTokenValidator
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oidc.core import OpenIDCode, UserInfo, UserInfoEndpoint
from authlib.oidc.core.models import AuthorizationCodeMixin
from flask import Flask, Response, jsonify, request
from joserfc.jwk import RSAKey
from werkzeug.serving import make_server

SCOPES = ["openid", "email", "profile"]
AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]
CODE_LIFETIME = 120


class Client(ClientMixin):
    def __init__(self, conf):
        self.client_id = conf["clientId"]
        self.secret = conf.get("clientSecret")
        self.redirect_uris = list(conf["redirectUris"])
        self.id_token_lifetime = int(conf.get("idTokenLifetime") or 300)
        self.client_metadata = {}

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None  # OpenID Connect requires redirect_uri in every authorization request

    def get_allowed_scope(self, scope):
        return " ".join(s for s in (scope or "").split() if s in SCOPES)

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri in self.redirect_uris

    def check_client_secret(self, client_secret):
        return self.secret is not None and hmac.compare_digest(self.secret, client_secret or "")

    def check_endpoint_auth_method(self, method, endpoint):
        return method == "none" if self.secret is None else method in AUTH_METHODS[:2]

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type == "authorization_code"


class Record:
    def __init__(self, **fields):
        self.__dict__.update(fields)


class AuthCode(Record, AuthorizationCodeMixin):
    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.user["auth_time"]


class Token(Record, TokenMixin):
    def check_client(self, client):
        return client.client_id == self.client.client_id

    def get_scope(self):
        return self.scope

    def get_expires_in(self):
        return self.expires_in

    def is_expired(self):
        return time.time() >= self.issued_at + self.expires_in

    def is_revoked(self):
        return False

    def get_user(self):
        return self.user

    def get_client(self):
        return self.client


def user_info(user, scope):
    claims = UserInfo(sub=user["sub"], email=user.get("email"), name=user.get("name"),
                      email_verified=bool(user.get("emailVerified", False)))
    return UserInfo({k: v for k, v in claims.filter(scope).items() if v is not None})


def create_app(config):
    issuer = config["issuer"]  # exactly as configured: iss and discovery must match it
    base = issuer.rstrip("/")
    keys = []
    for path in config["signingKeys"]:
        with open(path, "rb") as f:
            key = RSAKey.import_key(f.read())
        keys.append(RSAKey.import_key(key.as_dict(private=True),
                                      {"kid": key.thumbprint(), "alg": "RS256", "use": "sig"}))
    clients = {c["clientId"]: Client(c) for c in config["clients"]}
    users = {u["username"]: u for u in config["users"]}
    codes, tokens, token_lock = {}, {}, threading.Lock()

    class CodeGrant(grants.AuthorizationCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS

        def save_authorization_code(self, code, req):
            data = req.payload.data
            codes[code] = AuthCode(code=code, client_id=req.client.client_id, user=req.user,
                                   redirect_uri=req.payload.redirect_uri, scope=req.payload.scope,
                                   nonce=data.get("nonce"), code_challenge=data.get("code_challenge"),
                                   code_challenge_method=data.get("code_challenge_method"),
                                   expires_at=time.time() + CODE_LIFETIME)

        def query_authorization_code(self, code, client):
            found = codes.get(code)
            if found and found.client_id == client.client_id and time.time() < found.expires_at:
                return found
            return None

        def delete_authorization_code(self, authorization_code):
            codes.pop(authorization_code.code, None)

        def authenticate_user(self, authorization_code):
            return authorization_code.user

    class S256Challenge(CodeChallenge):
        SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

        def validate_code_challenge(self, grant, redirect_uri):
            super().validate_code_challenge(grant, redirect_uri)
            data = grant.request.payload.data
            if data.get("code_challenge") and data.get("code_challenge_method") != "S256":
                raise InvalidRequestError("code_challenge_method must be S256")
            if grant.request.client.secret is None and not data.get("code_challenge"):
                raise InvalidRequestError("Public clients must use PKCE (S256)")

    class IDToken(OpenIDCode):
        def exists_nonce(self, nonce, req):
            return any(c.nonce == nonce and c.client_id == req.payload.client_id for c in codes.values())

        def resolve_client_private_key(self, client):
            return keys[0]

        def get_encode_header(self, client):
            return {"alg": "RS256", "kid": keys[0].kid}

        def get_client_claims(self, client):
            now = int(time.time())
            return {"iss": issuer, "aud": client.client_id, "iat": now, "exp": now + client.id_token_lifetime}

        def generate_user_info(self, user, scope):
            return user_info(user, scope)

    class AccessTokens(BearerTokenValidator):
        def authenticate_token(self, token_string):
            return tokens.get(token_string)

    class UserInfoFromToken(UserInfoEndpoint):
        def generate_user_info(self, user, scope):
            return user_info(user, scope)

    def save_token(token, req):
        tokens[token["access_token"]] = Token(client=req.client, user=req.user, scope=token.get("scope", ""),
                                              expires_in=token["expires_in"], issued_at=time.time())

    app = Flask(__name__)
    server = AuthorizationServer(app, query_client=clients.get, save_token=save_token)
    server.register_grant(CodeGrant, [S256Challenge(required=True), IDToken(require_nonce=False)])
    protector = ResourceProtector()
    protector.register_token_validator(AccessTokens())
    server.register_endpoint(UserInfoFromToken(resource_protector=protector))

    def page(body, status=200):
        return Response(f"<!doctype html><html><head><title>Test identity provider</title></head>"
                        f"<body>{body}</body></html>", status, content_type="text/html; charset=utf-8")

    def sign_in_form(error="", status=200):
        message = f'<p id="error" role="alert">{escape(error)}</p>' if error else ""
        return page(f"""<h1>Sign in</h1>{message}
<form method="post">
  <label>Username <input name="username" id="username" autocomplete="username"></label>
  <label>Password <input type="password" name="password" id="password"></label>
  <button type="submit" id="sign-in" name="action" value="sign-in">Sign in</button>
  <button type="submit" id="deny" name="action" value="deny">Deny</button>
</form>""", status)

    @app.get("/.well-known/openid-configuration")
    def discovery():
        return jsonify(issuer=issuer, authorization_endpoint=f"{base}/authorize", token_endpoint=f"{base}/token",
                       userinfo_endpoint=f"{base}/userinfo", jwks_uri=f"{base}/jwks",
                       response_types_supported=["code"], subject_types_supported=["public"],
                       id_token_signing_alg_values_supported=["RS256"], scopes_supported=SCOPES,
                       token_endpoint_auth_methods_supported=AUTH_METHODS, code_challenge_methods_supported=["S256"],
                       grant_types_supported=["authorization_code"], claims_supported=[
                           "sub", "iss", "aud", "iat", "exp", "auth_time", "nonce", "email", "email_verified", "name"])

    @app.get("/jwks")
    def jwks():
        return jsonify(keys=[k.as_dict(private=False) for k in keys])

    @app.route("/authorize", methods=["GET", "POST"])
    def authorize():
        # The form posts back to this same URL, so the authorization request stays in the query string.
        try:
            grant = server.get_consent_grant(end_user=None)
        except OAuth2Error as error:
            if error.redirect_uri:  # the client and its redirect URI are known: tell the client
                return server.handle_error_response(None, error)
            return page(f"<h1>Invalid request</h1><p id=\"error\">{escape(error.error)}: "
                        f"{escape(error.description or '')}</p>", 400)
        if request.method == "GET":
            return sign_in_form()
        if request.form.get("action") == "deny":
            return server.create_authorization_response(grant=grant, grant_user=None)
        user = users.get(request.form.get("username", ""))
        if not user or not hmac.compare_digest(user["password"], request.form.get("password", "")):
            return sign_in_form("Wrong username or password.", 401)
        return server.create_authorization_response(grant=grant, grant_user=dict(user, auth_time=int(time.time())))

    @app.post("/token")
    def token():
        with token_lock:  # codes are single-use even under concurrent requests
            return server.create_token_response()

    @app.route("/userinfo", methods=["GET", "POST"])
    def userinfo():
        return server.create_endpoint_response("userinfo")

    return app


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="path of the JSON configuration")
    with open(parser.parse_args().config) as f:
        config = json.load(f)
    app = create_app(config)
    address = urlsplit(config["issuer"])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    httpd = make_server("127.0.0.1", address.port or 80, app, threaded=True)
    print("ready", flush=True)  # listening from here on; the tests may poll the discovery URL instead
    httpd.serve_forever()


if __name__ == "__main__":
    main()
